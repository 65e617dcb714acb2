#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

// Bitbucket Cloud's API 2.0 repository webhooks, as Argo calls them through go-bitbucket
// (`Repositories.Webhooks.Gets`, `Create`, `Delete`).

namespace ganglion::bitbucket::detail {

/// The default API root (Argo's go-bitbucket has it built in).
inline constexpr const char* cloud_api_url = "https://api.bitbucket.org/2.0";

/// The description Argo gives the hooks it creates.
inline constexpr const char* hook_description = "webhook managed by Argo-Events";

/// The POST body go-bitbucket sends: json.Marshal of a map, keys sorted
/// (`{"active":true,"description":…,"events":[…],"url":…}`).
std::string hook_body(const std::string& url, const std::vector<std::string>& events);

/// One call's outcome.
using api_result = http::api_answer;

/// A hook of a repository.
struct cloud_hook {
  std::string uuid; ///< `{…}`
  std::string url;
};

/// How the requests authenticate: basic credentials or a bearer token.
struct cloud_credentials {
  std::optional<std::pair<std::string, std::string>> basic;
  std::string bearer_token;
};

/// The calls Argo makes, blocking: each waits for the shared client.
class cloud_api {
public:
  /// Calls API root `api_url` through `client`.
  cloud_api(http::client& client, std::string api_url, cloud_credentials credentials,
            std::chrono::milliseconds timeout);

  /// The hooks of `repo` (the first page, as Argo reads it); nullopt with `failed` set when the
  /// call failed or the answer has no `values` list.
  std::optional<std::vector<cloud_hook>> hooks(const repository& repo, api_result& failed) const;
  /// Creates a hook posting `events` to `url`; its uuid, or nullopt with `failed` set.
  std::optional<std::string> create(const repository& repo, const std::string& url,
                                    const std::vector<std::string>& events,
                                    api_result& failed) const;
  /// Deletes hook `uuid` of `repo`; a hook already gone (404) is not an error, as in Argo.
  api_result remove(const repository& repo, const std::string& uuid) const;

private:
  api_result call(std::string method, std::string url, std::string body) const;
  std::string hooks_url(const repository& repo) const;

  http::client& client_;
  std::string api_url_;
  cloud_credentials credentials_;
  std::chrono::milliseconds timeout_;
};

} // namespace ganglion::bitbucket::detail
