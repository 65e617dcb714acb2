#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::slack {

dsl::kind_spec source_spec_step(bool one_port) {
  return http::push_spec_step<event_spec>(&detail::read_event, &detail::check_event,
                                          &event_spec::webhook, one_port);
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

} // namespace ganglion::slack
