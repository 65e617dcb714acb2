#include "spec/spec_steps.hpp"

namespace ganglion::file {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<event_spec>(&detail::read_event, &detail::check_event);
}

dsl::kind_spec sftp_spec_step() {
  return dsl::make_kind_spec<sftp_event_spec>(&detail::read_sftp_event,
                                              &detail::check_sftp_event);
}

} // namespace ganglion::file
