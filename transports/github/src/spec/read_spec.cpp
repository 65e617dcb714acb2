#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::github::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.webhook = http::read_webhook_context(node);
  out.deprecated_owner = read_string(node, "owner");
  out.deprecated_repository = read_string(node, "repository");
  out.events = read_string_list(node, "events");
  out.api_token = read_key_selector(node, "apiToken");
  out.webhook_secret = read_key_selector(node, "webhookSecret");
  out.insecure = read_bool(node, "insecure");
  out.active = read_bool(node, "active");
  out.content_type = read_string(node, "contentType");
  out.github_base_url = read_string(node, "githubBaseURL");
  out.github_upload_url = read_string(node, "githubUploadURL");
  out.delete_hook_on_finish = read_bool(node, "deleteHookOnFinish");
  out.metadata = read_string_map(node, "metadata");
  if (auto repos = child(node, "repositories"); repos.IsSequence())
    for (const auto& repo : repos)
      out.repositories.push_back({read_string(repo, "owner"), read_string_list(repo, "names")});
  out.organizations = read_string_list(node, "organizations");
  out.has_organizations = !is_absent(child(node, "organizations"));
  if (auto app = child(node, "githubApp"); !is_absent(app) && app.IsMap())
    out.github_app = github_app_creds{read_key_selector(app, "privateKey"), read_int(app, "appID"),
                                      read_int(app, "installationID")};
  return out;
}

} // namespace ganglion::github::detail
