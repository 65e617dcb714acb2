#include <nlohmann/json.hpp>

#include "validate.hpp"
#include "validate_json.hpp"

namespace ganglion::dsl::detail {

void validate_event_bus(const event_bus& bus, const load_context& cx) {
  if (bus.spec.type.empty()) {
    cx.error("spec", "an EventBus needs one of nats, jetstream, jetstreamExotic or kafka");
    return;
  }
  auto spec = nlohmann::json::parse(bus.spec.json, nullptr, false);
  if (spec.is_discarded())
    return;
  auto path = "spec." + bus.spec.type;
  if (bus.spec.type == "nats") {
    bool native = has(spec, "native");
    bool exotic = has(spec, "exotic");
    if (native && exotic)
      cx.error(path, "nats takes native or exotic, not both");
    if (!native && !exotic)
      cx.error(path, "nats needs native or exotic");
    if (exotic) {
      required_object(spec["exotic"], "clusterID", path + ".exotic", cx);
      required(spec["exotic"], "url", path + ".exotic", cx);
    }
  } else if (bus.spec.type == "jetstream") {
    required(spec, "version", path, cx);
    if (has(spec, "replicas") && spec["replicas"].is_number_integer()) {
      auto replicas = spec["replicas"].get<std::int64_t>();
      if (replicas == 2 || replicas <= 0)
        cx.error(path + ".replicas", "a jetstream bus needs 1 replica or at least 3");
    }
  } else {
    required(spec, "url", path, cx);
  }
}

} // namespace ganglion::dsl::detail
