#include "client/hook_options.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gitlab::detail {

using namespace dsl::detail;

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& p = in.path;
  const auto& cx = in.cx;
  if (!s.has_events)
    cx.error(child_path(p, "events"), "events can't be empty");
  if (s.gitlab_base_url.empty())
    cx.error(child_path(p, "gitlabBaseURL"), "gitlab base url can't be empty");
  else if (!s.gitlab_base_url.starts_with("https://") && !s.gitlab_base_url.starts_with("http://"))
    cx.error(child_path(p, "gitlabBaseURL"), // *ganglion*: go-gitlab fails on its first call
             "must be an http or https URL, got \"" + s.gitlab_base_url + "\"");
  if (!s.access_token)
    cx.error(child_path(p, "accessToken"), "access token can't be nil");
  check_secret(s.access_token, child_path(p, "accessToken"), cx);
  check_secret(s.secret_token, child_path(p, "secretToken"), cx);
  for (std::size_t i = 0; i < s.events.size(); ++i) // *ganglion*: Argo fails when it starts
    if (!is_hook_flag(s.events[i]))
      cx.error(p + ".events[" + std::to_string(i) + "]",
               "unknown event " + s.events[i] + " (one of " + hook_flag_names() + ")");
}

} // namespace ganglion::gitlab::detail
