#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/kubernetes/config.hpp"

namespace ganglion::core {
class metrics_registry;
}

namespace ganglion::kubernetes {

/// One request to the API server.
struct api_request {
  std::string method = "GET";
  /// Absolute path with its query, e.g. `/api/v1/namespaces/default/configmaps/x`.
  std::string path{};
  std::string body{};
  /// Of `body`: `application/json`, `application/merge-patch+json`,
  /// `application/json-patch+json`, `application/strategic-merge-patch+json`,
  /// `application/apply-patch+yaml`.
  std::string content_type = "application/json";
  /// Whole-request timeout; zero: the client's.
  std::chrono::milliseconds timeout{0};
  /// The user the request acts as through Kubernetes impersonation (`Impersonate-User`, e.g.
  /// `system:serviceaccount:<ns>:<name>`); empty: the client's (see api_client::acting_as).
  std::string impersonate_user{};
};

/// How a request ended. `status` 0 when no response arrived (then `error` says why).
struct api_response {
  long status = 0;
  std::string body{};
  std::string error{};

  /// A 2xx status.
  bool ok() const noexcept { return status >= 200 && status < 300; }
  /// Why it failed, for messages: `HTTP 404: pods "x" not found` (the API's Status message,
  /// else the body's start), or the transport error.
  std::string message() const;
};

/// Called once per request, on the client's thread: must not block.
using api_completion = std::function<void(api_response)>;

/// A resource the API server serves, as discovery lists it.
struct resource_info {
  std::string group;   ///< "" for the core group
  std::string version;
  std::string kind;
  std::string name;    ///< plural, as in URLs (`pods`, `workflows`)
  bool namespaced = true;
  /// Whether `<name>/status` is listed (a status subresource).
  bool has_status = false;

  /// `v1` or `group/version`.
  std::string api_version() const;
};

/// Settings of a client.
struct client_options {
  /// Timeout of a request that gives none.
  std::chrono::milliseconds request_timeout{30000};
  /// Times a `429 Too Many Requests` is retried after its `Retry-After` (capped below).
  int max_retries = 3;
  /// Longest wait honoured from a `Retry-After`.
  std::chrono::milliseconds max_retry_after{10000};
  /// Requests queued or in flight at once; more fail at once with an error.
  std::size_t max_in_flight = 4096;
  /// How often the token file is read again.
  std::chrono::milliseconds token_refresh{60000};
  /// Shortest time between two discoveries of one group/version that miss a kind.
  std::chrono::milliseconds discovery_refresh{10000};
  /// Where request counts and latencies go (by verb and code); none when null.
  core::metrics_registry* metrics = nullptr;
};

/// A Kubernetes API client: libcurl on one thread with keep-alive, bearer token (re-read as it
/// rotates), client certificates, the configured CA; `429` retried after its `Retry-After`;
/// discovery cached and refreshed on a miss. Thread-safe.
class api_client {
public:
  /// Throws config_error when the configuration cannot be used (unreadable token file,
  /// malformed PEM …).
  explicit api_client(cluster_config config, client_options options = {});
  ~api_client();
  api_client(const api_client&) = delete;
  api_client& operator=(const api_client&) = delete;

  /// Sends `request`; `done` is called exactly once, on the client's thread.
  void request(api_request request, api_completion done);

  /// Sends `request` and waits for its response. Must not be called from a completion.
  api_response call(api_request request);

  /// The resource of `api_version` (`v1`, `apps/v1`) and `kind`, from discovery (`/api`,
  /// `/apis`): cached, and discovered again on a miss at most once per `discovery_refresh`
  /// (10 s). nullopt when the server does not serve it; throws std::runtime_error (with the
  /// API's message) when discovery itself fails. Blocking; not from a completion.
  std::optional<resource_info> find_resource(std::string_view api_version, std::string_view kind);

  /// `/api/v1/namespaces/<ns>/<name>[/<object>]` or `/apis/<g>/<v>/…`; `ns` is ignored for a
  /// cluster-scoped resource.
  static std::string path_of(const resource_info& resource, std::string_view ns,
                             std::string_view object = {});

  const cluster_config& config() const noexcept;

  /// A client for the calls made on behalf of `user` (Kubernetes impersonation: every request
  /// and watch sends `Impersonate-User: <user>`, so the API server authorizes it as that user).
  /// It shares `client`'s connections, credentials and discovery cache (discovery lists
  /// resource types alone and stays `client`'s own) and keeps `client` alive. Throws
  /// std::invalid_argument when `user` is empty or holds a control character.
  static std::shared_ptr<api_client> acting_as(std::shared_ptr<api_client> client,
                                               std::string user);

  /// The user acting_as() gave; empty: the credentials' own.
  const std::string& acting_user() const noexcept;

private:
  friend class watcher;
  struct impl;
  api_client(std::shared_ptr<api_client> owner, std::string user);

  std::shared_ptr<impl> impl_;
  /// Of a client made by acting_as: the client that owns `impl_` (and shuts it down).
  std::shared_ptr<api_client> owner_;
  std::string user_;
};

} // namespace ganglion::kubernetes
