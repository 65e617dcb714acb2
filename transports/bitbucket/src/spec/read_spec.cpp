#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::bitbucket::detail {

using namespace dsl::detail;

namespace {

std::optional<cloud_auth> read_auth(const YAML::Node& node) {
  auto auth = child(node, "auth");
  if (!auth.IsMap())
    return std::nullopt;
  cloud_auth out;
  if (auto basic = child(auth, "basic"); basic.IsMap())
    out.basic = dsl::basic_auth{read_key_selector(basic, "username"),
                                read_key_selector(basic, "password")};
  out.oauth_token = read_key_selector(auth, "oauthToken");
  return out;
}

} // namespace

event_spec read_cloud(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.delete_hook_on_finish = read_bool(node, "deleteHookOnFinish");
  out.metadata = read_string_map(node, "metadata");
  out.webhook = http::read_webhook_context(node);
  out.auth = read_auth(node);
  out.events = read_string_list(node, "events");
  out.owner = read_string(node, "owner");
  out.project_key = read_string(node, "projectKey");
  out.repository_slug = read_string(node, "repositorySlug");
  if (auto items = child(node, "repositories"); items.IsSequence())
    for (const auto& item : items)
      out.repositories.push_back({read_string(item, "owner"), read_string(item, "repositorySlug")});
  return out;
}

server_spec read_server(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  server_spec out;
  out.webhook = http::read_webhook_context(node);
  out.project_key = read_string(node, "projectKey");
  out.repository_slug = read_string(node, "repositorySlug");
  out.projects = read_string_list(node, "projects");
  if (auto items = child(node, "repositories"); items.IsSequence())
    for (const auto& item : items)
      out.repositories.push_back(
        {read_string(item, "projectKey"), read_string(item, "repositorySlug")});
  out.events = read_string_list(node, "events");
  out.skip_branch_refs_changed_on_open_pr = read_bool(node, "skipBranchRefsChangedOnOpenPR");
  out.one_event_per_change = read_bool(node, "oneEventPerChange");
  out.access_token = read_key_selector(node, "accessToken");
  out.webhook_secret = read_key_selector(node, "webhookSecret");
  out.base_url = read_string(node, "bitbucketserverBaseURL");
  out.delete_hook_on_finish = read_bool(node, "deleteHookOnFinish");
  out.metadata = read_string_map(node, "metadata");
  out.tls = read_tls(node, "tls");
  out.check_interval = read_string(node, "checkInterval");
  return out;
}

} // namespace ganglion::bitbucket::detail
