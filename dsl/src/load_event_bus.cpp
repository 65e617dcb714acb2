#include "load_common.hpp"
#include "load_kinds.hpp"
#include "yaml_node.hpp"

namespace ganglion::dsl::detail {

event_bus load_event_bus(const YAML::Node& root, const load_context& cx) {
  event_bus out;
  out.metadata = read_object_meta(child(root, "metadata"));
  auto spec = child(root, "spec");
  static constexpr std::pair<std::string_view, std::string_view> kinds[] = {
    {"nats", "NATSBus"},
    {"jetstream", "JetStreamBus"},
    {"jetstreamExotic", "JetStreamConfig"},
    {"kafka", "KafkaBus"},
  };
  for (const auto& [key, type] : kinds) {
    if (is_absent(child(spec, key)))
      continue;
    out.spec.type = key;
    out.spec.json = read_json(spec, key, type);
    break;
  }
  return out;
}

} // namespace ganglion::dsl::detail
