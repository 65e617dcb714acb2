#include "spec/spec_steps.hpp"

namespace ganglion::minio {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<event_spec>(&detail::read_event, &detail::check_event);
}

} // namespace ganglion::minio
