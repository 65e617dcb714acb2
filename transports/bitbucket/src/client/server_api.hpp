#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

// Bitbucket Server's REST API 1.0 repository webhooks, as Argo calls them through
// gfleury/go-bitbucket-v1 (FindWebhooks, CreateWebhook, UpdateWebhook, DeleteWebhook,
// GetRepositoriesWithOptions): under the `bitbucketserverBaseURL` root, a bearer token, and the
// client's default headers `X-Atlassian-Token: no-check` and `X-Requested-With: XMLHttpRequest`.

namespace ganglion::bitbucket::detail {

/// A webhook as go-bitbucket-v1 models it (the fields Argo reads and writes).
struct server_hook {
  long id = 0;
  std::string url;
  std::vector<std::string> events;
  std::string secret; ///< `configuration.secret`
};

/// The body Argo sends to create or update its hook: json.Marshal of go-bitbucket-v1's Webhook
/// (`{"id":0,"name":"Argo Events","events":[…],"url":…,"active":true,"configuration":{"secret":…}}`),
/// or, without a secret, of that struct as a map less `configuration` (keys sorted).
std::string server_hook_body(const std::string& url, const std::vector<std::string>& events,
                             const std::string& secret);

/// One call's outcome.
using server_result = http::api_answer;

/// The calls Argo makes, blocking: each waits for the shared client.
class server_api {
public:
  /// Calls REST root `base_url` through `client` with `token`; `tls` for an https root.
  server_api(http::client& client, std::string base_url, std::string token,
             std::optional<http::client_tls> tls, std::chrono::milliseconds timeout);

  /// The hooks of `repo`; nullopt with `failed` set when the call failed.
  std::optional<std::vector<server_hook>> hooks(const server_repository& repo,
                                                server_result& failed) const;
  /// Creates a hook from `body`; its id, or nullopt with `failed` set.
  std::optional<long> create(const server_repository& repo, const std::string& body,
                             server_result& failed) const;
  /// Replaces hook `id` of `repo` with `body`.
  server_result update(const server_repository& repo, long id, const std::string& body) const;
  /// Deletes hook `id` of `repo`.
  server_result remove(const server_repository& repo, long id) const;
  /// Every repository of `project`, page after page (500 a page, as Argo).
  std::optional<std::vector<server_repository>> repositories(const std::string& project,
                                                             server_result& failed) const;

private:
  server_result call(std::string method, std::string url, std::string body) const;
  std::string webhooks_url(const server_repository& repo) const;

  http::client& client_;
  std::string base_url_;
  std::string token_;
  std::optional<http::client_tls> tls_;
  std::chrono::milliseconds timeout_;
};

} // namespace ganglion::bitbucket::detail
