#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::bitbucket::detail {

using namespace dsl::detail;

namespace {

void check_auth(const std::optional<cloud_auth>& auth, const std::string& at,
                const load_context& cx) {
  auto path = child_path(at, "auth");
  if (!auth) { // *ganglion*: Argo dereferences the missing auth and panics
    cx.error(path, "auth is required (basic or oauthToken)");
    return;
  }
  if (!auth->basic && !auth->oauth_token)
    cx.error(path, "auth needs basic (username and password) or oauthToken");
  if (auth->basic) {
    auto basic = child_path(path, "basic");
    if (!auth->basic->username)
      cx.error(child_path(basic, "username"), "username is required");
    if (!auth->basic->password)
      cx.error(child_path(basic, "password"), "password is required");
    check_secret(auth->basic->username, child_path(basic, "username"), cx);
    check_secret(auth->basic->password, child_path(basic, "password"), cx);
  }
  check_secret(auth->oauth_token, child_path(path, "oauthToken"), cx);
}

} // namespace

void check_cloud(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (s.bitbucket_repositories().empty())
    cx.error(child_path(at, "repositories"), "at least one repository is required");
  for (std::size_t i = 0; i < s.repositories.size(); ++i) { // *ganglion*: the hook's API path
    auto item = item_path(child_path(at, "repositories"), i);
    require(s.repositories[i].owner, child_path(item, "owner"), "owner", cx);
    require(s.repositories[i].repository_slug, child_path(item, "repositorySlug"), "repositorySlug",
            cx);
  }
  if (s.should_create_webhooks() && s.events.empty())
    cx.error(child_path(at, "events"), "events must be defined to create a bitbucket webhooks");
  check_auth(s.auth, at, cx);
  if (!s.project_key.empty())
    warn_ignored(at, "projectKey", "deprecated, and Argo reads it nowhere", cx);
  if (!s.repositories.empty() && (!s.owner.empty() || !s.repository_slug.empty()))
    cx.warning(child_path(at, s.owner.empty() ? "repositorySlug" : "owner"),
               "ignored: repositories is set (the deprecated owner and repositorySlug are read "
               "only without it)");
  if (s.delete_hook_on_finish && !s.should_create_webhooks())
    cx.warning(child_path(at, "deleteHookOnFinish"),
               "ignored: no hook is created without credentials and webhook.url");
}

void check_server(const server_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (s.should_create_webhooks() && s.events.empty())
    cx.error(child_path(at, "events"),
             "events must be defined to create a bitbucket server webhook");
  auto base = child_path(at, "bitbucketserverBaseURL");
  if (s.base_url.empty())
    cx.error(base, "bitbucket server base url can't be empty");
  else if (s.base_url.rfind("http://", 0) != 0 && s.base_url.rfind("https://", 0) != 0)
    cx.error(base, "bitbucketserverBaseURL must be an http:// or https:// URL, got \"" + s.base_url
                     + "\""); // *ganglion*: Argo fails on its first call
  if (!s.check_interval.empty()) {
    auto interval = dsl::parse_go_duration(s.check_interval);
    if (!interval)
      cx.error(child_path(at, "checkInterval"),
               "failed to parse webhook check interval duration: time: invalid duration \""
                 + s.check_interval + "\"");
    else if (*interval <= 0) // *ganglion*: Go's ticker panics on it
      cx.error(child_path(at, "checkInterval"), "checkInterval must be positive");
  }
  for (std::size_t i = 0; i < s.repositories.size(); ++i) { // *ganglion*: the hook's API path
    auto item = item_path(child_path(at, "repositories"), i);
    require(s.repositories[i].project_key, child_path(item, "projectKey"), "projectKey", cx);
    require(s.repositories[i].repository_slug, child_path(item, "repositorySlug"), "repositorySlug",
            cx);
  }
  check_secret(s.access_token, child_path(at, "accessToken"), cx);
  check_secret(s.webhook_secret, child_path(at, "webhookSecret"), cx);
  check_tls(s.tls, child_path(at, "tls"), cx);
  // *ganglion*: without accessToken Argo's API client is nil, and a branch change panics.
  if (s.skip_branch_refs_changed_on_open_pr && !s.access_token)
    cx.error(child_path(at, "skipBranchRefsChangedOnOpenPR"),
             "skipBranchRefsChangedOnOpenPR needs accessToken: the pull requests of each "
             "changed branch's commit are asked of the Bitbucket Server API with it");
  if (!s.repositories.empty() && (!s.project_key.empty() || !s.repository_slug.empty()))
    cx.warning(child_path(at, s.project_key.empty() ? "repositorySlug" : "projectKey"),
               "ignored: repositories is set (the deprecated projectKey and repositorySlug are "
               "read only without it)");
  if (s.delete_hook_on_finish && !s.should_create_webhooks())
    cx.warning(child_path(at, "deleteHookOnFinish"),
               "ignored: no hook is created without accessToken, webhook.url and repositories "
               "or projects");
}

} // namespace ganglion::bitbucket::detail
