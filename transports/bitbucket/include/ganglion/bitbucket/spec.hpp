#pragma once

// The bitbucket kinds' models: `spec.bitbucket.<event>` (Bitbucket Cloud) and
// `spec.bitbucketserver.<event>` (Bitbucket Server / Data Center) of an EventSource, as their
// spec steps read them.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::bitbucket {

/// One Bitbucket Cloud repository (Argo's BitbucketRepository).
struct repository {
  std::string owner; ///< the workspace
  std::string repository_slug;
};

/// `auth` of a Bitbucket Cloud event (Argo's BitbucketAuth): basic credentials (an app
/// password) or an OAuth bearer token.
struct cloud_auth {
  std::optional<dsl::basic_auth> basic;
  std::optional<dsl::secret_key_selector> oauth_token;
};

/// `spec.bitbucket.<event>` (Argo's BitbucketEventSource): Bitbucket Cloud posts the `events`
/// of each repository to `webhook`, and the source registers that hook through API 2.0.
struct event_spec {
  bool delete_hook_on_finish = false;
  std::map<std::string, std::string> metadata;
  http::webhook_spec webhook; ///< Argo's WebhookContext
  std::optional<cloud_auth> auth;
  std::vector<std::string> events;
  std::string owner;           ///< deprecated `owner`, with `repositorySlug`
  std::string project_key;     ///< deprecated `projectKey`: Argo reads it nowhere
  std::string repository_slug; ///< deprecated `repositorySlug`
  std::vector<repository> repositories;

  /// Argo's HasBitbucketBasicAuth.
  bool has_basic_auth() const {
    return auth && auth->basic && auth->basic->username && auth->basic->password;
  }
  /// Argo's HasBitbucketOAuthToken.
  bool has_oauth_token() const { return auth && auth->oauth_token.has_value(); }
  /// Argo's ShouldCreateWebhooks: credentials and a public `webhook.url`.
  bool should_create_webhooks() const {
    return (has_basic_auth() || has_oauth_token()) && !webhook.url.empty();
  }
  /// Argo's GetBitbucketRepositories: `repositories`, else the deprecated owner and slug.
  std::vector<repository> bitbucket_repositories() const {
    if (!repositories.empty())
      return repositories;
    if (!owner.empty() && !repository_slug.empty())
      return {{owner, repository_slug}};
    return {};
  }
};

/// One Bitbucket Server repository (Argo's BitbucketServerRepository).
struct server_repository {
  std::string project_key;
  std::string repository_slug;
};

/// `spec.bitbucketserver.<event>` (Argo's BitbucketServerEventSource): Bitbucket Server posts
/// the `events` of each repository to `webhook`, signed with `webhookSecret`, and the source
/// keeps that hook registered through REST API 1.0.
struct server_spec {
  http::webhook_spec webhook;        ///< Argo's WebhookContext
  std::string project_key;           ///< deprecated `projectKey`, with `repositorySlug`
  std::string repository_slug;       ///< deprecated `repositorySlug`
  std::vector<std::string> projects; ///< every repository of these projects
  std::vector<server_repository> repositories;
  std::vector<std::string> events;
  bool skip_branch_refs_changed_on_open_pr = false;
  bool one_event_per_change = false;
  std::optional<dsl::secret_key_selector> access_token;
  std::optional<dsl::secret_key_selector> webhook_secret;
  std::string base_url; ///< `bitbucketserverBaseURL`, the REST root (`https://host/rest`)
  bool delete_hook_on_finish = false;
  std::map<std::string, std::string> metadata;
  std::optional<dsl::tls_config> tls;
  std::string check_interval; ///< a Go duration; empty: 1m

  /// Argo's GetBitbucketServerRepositories: `repositories`, else the deprecated pair.
  std::vector<server_repository> bitbucket_repositories() const {
    if (!repositories.empty())
      return repositories;
    if (!project_key.empty() && !repository_slug.empty())
      return {{project_key, repository_slug}};
    return {};
  }
  /// Argo's ShouldCreateWebhooks: an access token, a public `webhook.url`, and repositories or
  /// projects.
  bool should_create_webhooks() const {
    return access_token && !webhook.url.empty()
           && (!bitbucket_repositories().empty() || !projects.empty());
  }
};

/// The spec step of the bitbucket source (reads and checks `spec.bitbucket.<event>`; an event
/// holds its endpoint and port alone, or its endpoint alone with `one_port`, `run --listen`).
dsl::kind_spec cloud_spec_step(bool one_port = false);

/// The spec step of the bitbucketserver source (reads and checks
/// `spec.bitbucketserver.<event>`; the claim as the bitbucket source's).
dsl::kind_spec server_spec_step(bool one_port = false);

} // namespace ganglion::bitbucket
