#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::github {

std::vector<owned_repositories> event_spec::owned() const {
  if (!repositories.empty())
    return repositories;
  if (!deprecated_owner.empty() && !deprecated_repository.empty())
    return {{deprecated_owner, {deprecated_repository}}};
  return {};
}

dsl::kind_spec source_spec_step(bool one_port) {
  return http::push_spec_step<event_spec>(&detail::read_event, &detail::check_event,
                                          &event_spec::webhook, one_port);
}

} // namespace ganglion::github
