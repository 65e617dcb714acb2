#include "spec/spec_steps.hpp"

namespace ganglion::redis {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<event_spec>(&detail::read_event, &detail::check_event);
}

dsl::kind_spec stream_spec_step() {
  return dsl::make_kind_spec<stream_spec>(&detail::read_stream, &detail::check_stream);
}

} // namespace ganglion::redis
