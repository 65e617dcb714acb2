#include "spec/spec_steps.hpp"

namespace ganglion::nats {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<event_spec>(&detail::read_event, &detail::check_event);
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

dsl::kind_spec jetstream_bus_spec_step() {
  return dsl::make_kind_spec<bus_spec>(
    [](const dsl::spec_read_input& in) { return detail::read_bus(in, true); }, &detail::check_bus);
}

dsl::kind_spec jetstream_exotic_bus_spec_step() {
  return dsl::make_kind_spec<bus_spec>(
    [](const dsl::spec_read_input& in) { return detail::read_bus(in, false); }, &detail::check_bus);
}

dsl::kind_spec streaming_bus_spec_step() {
  return dsl::make_kind_spec<streaming_bus_spec>(&detail::read_streaming_bus,
                                                 &detail::check_streaming_bus);
}

} // namespace ganglion::nats
