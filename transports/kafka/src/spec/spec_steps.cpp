#include "spec/spec_steps.hpp"

namespace ganglion::kafka {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<event_spec>(&detail::read_event, &detail::check_event);
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

dsl::kind_spec bus_spec_step() {
  return dsl::make_kind_spec<bus_spec>(&detail::read_bus, &detail::check_bus);
}

} // namespace ganglion::kafka
