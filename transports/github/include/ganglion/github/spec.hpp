#pragma once

// The github kind's model: `spec.github.<event>` of an EventSource (Argo's GithubEventSource),
// as its spec step reads it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::github {

/// `repositories[]`: an owner (organization or user) and its repository names.
struct owned_repositories {
  std::string owner;
  std::vector<std::string> names;
};

/// `githubApp`: the App whose installation token registers the hooks.
struct github_app_creds {
  std::optional<dsl::secret_key_selector> private_key;
  std::int64_t app_id = 0;
  std::int64_t installation_id = 0;
};

/// The API root go-github uses when `githubBaseURL` is not set.
inline constexpr const char* default_base_url = "https://api.github.com/";

/// `spec.github.<event>`.
struct event_spec {
  /// `webhook` (Argo's WebhookContext): where GitHub's deliveries arrive.
  http::webhook_spec webhook;
  /// `owner` and `repository`: the deprecated single repository.
  std::string deprecated_owner;
  std::string deprecated_repository;
  std::vector<std::string> events;
  std::optional<dsl::secret_key_selector> api_token;
  std::optional<dsl::secret_key_selector> webhook_secret;
  bool insecure = false;
  bool active = false;
  std::string content_type; ///< `json`, `form` or empty (GitHub's default, form)
  std::string github_base_url;
  std::string github_upload_url;
  bool delete_hook_on_finish = false;
  std::map<std::string, std::string> metadata;
  std::vector<owned_repositories> repositories;
  std::vector<std::string> organizations;
  bool has_organizations = false; ///< `organizations` given (Argo tells nil from empty)
  std::optional<github_app_creds> github_app;

  /// Argo's GetOwnedRepositories: `repositories`, else the deprecated owner/repository pair.
  std::vector<owned_repositories> owned() const;
  /// Argo's HasGithubAppCreds: `githubApp` with its `privateKey`.
  bool has_app_creds() const { return github_app && github_app->private_key; }
  /// Argo's NeedToCreateHooks: credentials (apiToken or githubApp) and `webhook.url`.
  bool need_to_create_hooks() const {
    return (api_token || has_app_creds()) && !webhook.url.empty();
  }
};

/// The spec step of the github source: reads and checks `spec.github.<event>` (Argo's rules and
/// its WebhookContext's), and claims its endpoint as a webhook does. With `one_port` every push
/// source shares the `--listen` port.
dsl::kind_spec source_spec_step(bool one_port = false);

} // namespace ganglion::github
