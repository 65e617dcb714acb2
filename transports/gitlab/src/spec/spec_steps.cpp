#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::gitlab {

std::vector<std::string> event_spec::project_list() const {
  if (!projects.empty())
    return projects;
  if (!deprecated_project_id.empty())
    return {deprecated_project_id};
  return {};
}

dsl::kind_spec source_spec_step(bool one_port) {
  return http::push_spec_step<event_spec>(&detail::read_event, &detail::check_event,
                                          &event_spec::webhook, one_port);
}

} // namespace ganglion::gitlab
