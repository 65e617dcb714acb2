#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gitlab::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.webhook = http::read_webhook_context(node);
  out.deprecated_project_id = read_string(node, "projectID");
  out.events = read_string_list(node, "events");
  out.has_events = !is_absent(child(node, "events"));
  out.access_token = read_key_selector(node, "accessToken");
  out.enable_ssl_verification = read_bool(node, "enableSSLVerification");
  out.gitlab_base_url = read_string(node, "gitlabBaseURL");
  out.delete_hook_on_finish = read_bool(node, "deleteHookOnFinish");
  out.metadata = read_string_map(node, "metadata");
  out.projects = read_string_list(node, "projects");
  out.secret_token = read_key_selector(node, "secretToken");
  out.groups = read_string_list(node, "groups");
  return out;
}

} // namespace ganglion::gitlab::detail
