#include "ganglion/dsl/kind/spec_input.hpp"
#include "validate/validate.hpp"

namespace ganglion::dsl::detail {

void validate_event_bus(const event_bus& bus, const load_context& cx) {
  if (bus.spec.type.empty()) {
    cx.error("spec", "an EventBus needs one of nats, jetstream, jetstreamExotic or kafka");
    return;
  }
  const auto& steps = cx.options.kinds.buses;
  auto step = steps.find(bus.spec.type);
  if (step == steps.end() || !step->second.check || !bus.spec.spec.has_value())
    return;
  step->second.check(bus.spec.spec, spec_check_input{"spec." + bus.spec.type, cx});
}

} // namespace ganglion::dsl::detail
