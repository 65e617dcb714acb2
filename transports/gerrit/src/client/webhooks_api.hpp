#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

// Gerrit's webhooks plugin REST API (plugins/webhooks rest-api-config.md), as Argo's
// hook_util.go calls it through go-gerrit: authenticated paths under `<base>/a/`, basic
// credentials, JSON answers behind Gerrit's `)]}'` guard line.

namespace ganglion::gerrit::detail {

/// Argo's ProjectHookConfigs as it creates a hook (the fields Argo sets).
struct hook_config {
  std::string url;
  std::vector<std::string> events;
  std::int64_t max_tries = 0;
  bool ssl_verify = false;
};

/// The PUT body: json.NewEncoder's output for ProjectHookConfigs (omitempty fields left out,
/// Go's field order, a trailing newline).
std::string hook_body(const hook_config& config);

/// `<base>/a/config/server/webhooks~projects/<project>/remotes/` and, with `remote`, that
/// remote's path (ending in `/`), as go-gerrit builds them.
std::string remotes_url(std::string_view base_url, std::string_view project,
                        std::optional<std::string_view> remote = std::nullopt);

/// One call's outcome (the answer's guard line removed).
using api_result = http::api_answer;

/// The calls Argo makes (List, Create, Delete), blocking: each waits for the shared client.
class webhooks_api {
public:
  /// Calls `base_url` through `client` with basic credentials `user`:`password`.
  webhooks_api(http::client& client, std::string base_url, std::string user, std::string password,
               std::chrono::milliseconds timeout);

  /// The URL of hook `remote` of `project`, "" when the project has no such hook; nullopt with
  /// `failed` set when the call failed.
  std::optional<std::string> hook_url(const std::string& project, const std::string& remote,
                                      api_result& failed) const;
  /// PUTs hook `remote` of `project`.
  api_result create(const std::string& project, const std::string& remote,
                    const hook_config& config) const;
  /// DELETEs hook `remote` of `project`.
  api_result remove(const std::string& project, const std::string& remote) const;

private:
  api_result call(std::string method, std::string url, std::string body) const;

  http::client& client_;
  std::string base_url_;
  std::pair<std::string, std::string> credentials_;
  std::chrono::milliseconds timeout_;
};

} // namespace ganglion::gerrit::detail
