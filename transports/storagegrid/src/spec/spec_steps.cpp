#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::storagegrid {

dsl::kind_spec source_spec_step(bool one_port) {
  return http::push_spec_step<event_spec>(&detail::read_event, &detail::check_event,
                                          &event_spec::webhook, one_port);
}

} // namespace ganglion::storagegrid
