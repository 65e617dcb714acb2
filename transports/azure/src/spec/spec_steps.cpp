#include "spec/spec_steps.hpp"

namespace ganglion::azure {

dsl::kind_spec event_hubs_trigger_spec_step() {
  return dsl::make_kind_spec<event_hubs_trigger_spec>(&detail::read_event_hubs_trigger,
                                                      &detail::check_event_hubs_trigger);
}

dsl::kind_spec service_bus_trigger_spec_step() {
  return dsl::make_kind_spec<service_bus_trigger_spec>(&detail::read_service_bus_trigger,
                                                       &detail::check_service_bus_trigger);
}

dsl::kind_spec events_hub_source_spec_step() {
  return dsl::make_kind_spec<events_hub_source_spec>(&detail::read_events_hub_source,
                                                     &detail::check_events_hub_source);
}

dsl::kind_spec service_bus_source_spec_step() {
  return dsl::make_kind_spec<service_bus_source_spec>(&detail::read_service_bus_source,
                                                      &detail::check_service_bus_source);
}

dsl::kind_spec queue_storage_source_spec_step() {
  return dsl::make_kind_spec<queue_storage_source_spec>(&detail::read_queue_storage_source,
                                                        &detail::check_queue_storage_source);
}

} // namespace ganglion::azure
