#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "load/load_kinds.hpp"

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
    auto node = child(spec, key);
    if (is_absent(node))
      continue;
    out.spec.type = key;
    out.spec.json = read_json(spec, key, type);
    const auto& steps = cx.options.kinds.buses;
    if (auto step = steps.find(key); step != steps.end() && step->second.read) {
      auto path = child_path("spec", key);
      out.spec.spec = step->second.read(spec_read_input{node, path, cx, &out.metadata});
    }
    break;
  }
  return out;
}

} // namespace ganglion::dsl::detail
