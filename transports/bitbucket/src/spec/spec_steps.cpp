#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::bitbucket {

dsl::kind_spec cloud_spec_step(bool one_port) {
  return http::push_spec_step<event_spec>(&detail::read_cloud, &detail::check_cloud,
                                          &event_spec::webhook, one_port);
}

dsl::kind_spec server_spec_step(bool one_port) {
  return http::push_spec_step<server_spec>(&detail::read_server, &detail::check_server,
                                           &server_spec::webhook, one_port);
}

} // namespace ganglion::bitbucket
