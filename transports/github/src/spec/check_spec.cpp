#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::github::detail {

using namespace dsl::detail;

namespace {

/// ganglion's: a URL the API client can send the credentials to.
void check_api_url(const std::string& url, const std::string& path, const load_context& cx) {
  if (!url.empty() && !url.starts_with("https://") && !url.starts_with("http://"))
    cx.error(path, "must be an http or https URL, got \"" + url + "\"");
}

} // namespace

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& p = in.path;
  const auto& cx = in.cx;
  auto owned = s.owned();
  if (owned.empty() && !s.has_organizations)
    cx.error(p, "either repositories or organizations is required");
  if (!owned.empty() && s.has_organizations)
    cx.error(p, "only one of repositories and organizations is allowed");
  if (s.need_to_create_hooks() && s.events.empty())
    cx.error(child_path(p, "events"), "events must be defined to create a github webhook");
  if (!s.content_type.empty() && s.content_type != "json" && s.content_type != "form")
    cx.error(child_path(p, "contentType"), "content type must be \"json\" or \"form\"");
  if (!s.github_base_url.empty() || !s.github_upload_url.empty()) {
    if (s.github_base_url.empty())
      cx.error(child_path(p, "githubBaseURL"),
               "githubBaseURL is required when githubUploadURL is set");
    if (s.github_upload_url.empty())
      cx.error(child_path(p, "githubUploadURL"),
               "githubUploadURL is required when githubBaseURL is set");
  }
  check_api_url(s.github_base_url, child_path(p, "githubBaseURL"), cx);
  for (std::size_t i = 0; i < s.repositories.size(); ++i) { // *ganglion*: Argo calls the API
    auto at = p + ".repositories[" + std::to_string(i) + "]";
    require(s.repositories[i].owner, child_path(at, "owner"), "owner", cx);
    if (s.repositories[i].names.empty())
      cx.error(child_path(at, "names"), "names must list at least one repository");
  }
  check_secret(s.api_token, child_path(p, "apiToken"), cx);
  check_secret(s.webhook_secret, child_path(p, "webhookSecret"), cx);
  if (s.github_app) {
    auto at = child_path(p, "githubApp");
    if (!s.github_app->private_key)
      cx.error(child_path(at, "privateKey"), "privateKey is required");
    check_secret(s.github_app->private_key, child_path(at, "privateKey"), cx);
    if (s.github_app->app_id <= 0)
      cx.error(child_path(at, "appID"), "appID is required");
    if (s.github_app->installation_id <= 0)
      cx.error(child_path(at, "installationID"), "installationID is required");
    if (s.need_to_create_hooks() && !s.api_token && !s.github_base_url.empty()
        && !s.github_base_url.starts_with("https://"))
      cx.error(child_path(p, "githubBaseURL"), // *ganglion*: the App's JWT is never sent in clear
               "must be https:// to get a GitHub App's installation token");
  }
}

} // namespace ganglion::github::detail
