#include "spec/resource_spec_steps.hpp"

namespace ganglion::kubernetes {

dsl::kind_spec resource_source_spec_step() {
  return dsl::make_kind_spec<resource_event_spec>(&detail::read_resource_event,
                                                  &detail::check_resource_event);
}

} // namespace ganglion::kubernetes
