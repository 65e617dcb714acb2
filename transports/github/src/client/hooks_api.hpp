#pragma once

// GitHub's repository and organization webhooks REST API (list, create, delete), called as
// go-github v50 calls it, on the http transport's libcurl client.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_keeper.hpp"

namespace ganglion::github::detail {

/// One hook as the list call returns it.
struct hook {
  std::int64_t id = 0;
  std::string url;                 ///< `config.url`
  std::vector<std::string> events; ///< `events`
};

/// What a hook is created with (go-github's createHookRequest: name `web`).
struct hook_config {
  std::string url;
  std::string content_type; ///< left out when empty
  bool insecure = false;    ///< `insecure_ssl` "1", else "0"
  std::string secret;       ///< left out when empty
  std::vector<std::string> events;
  bool active = false;
};

/// The JSON body go-github sends to create `config`'s hook: `{"name":"web","config":{…},
/// "events":[…],"active":…}` and a newline (its encoder: HTML not escaped, config keys sorted).
std::string create_body(const hook_config& config);

/// Argo's compareHook: same URL, and the same events (in any order) or `*` in both.
bool same_hook(const hook& existing, const std::string& url,
               const std::vector<std::string>& events);

/// The hooks API at `base_url` (ending in `/`), each call authorized with what `authorization`
/// returns (`token <token>`), blocking the calling thread (never the client's).
class hooks_api {
public:
  /// Calls through `client`.
  hooks_api(http::hook_api_client client, std::string base_url,
            std::function<std::string()> authorization);

  /// `GET <scope>/hooks` (`scope`: `repos/<owner>/<name>` or `orgs/<org>`), its first page as
  /// go-github's ListHooks with no options. Throws http::hook_error.
  std::vector<hook> list(const std::string& scope) const;
  /// `POST <scope>/hooks`; the new hook's id. Throws http::hook_error.
  std::int64_t create(const std::string& scope, const hook_config& config) const;
  /// `DELETE <scope>/hooks/<id>`. Throws http::hook_error.
  void remove(const std::string& scope, std::int64_t id) const;

  /// `repos/<owner>/<name>`, each segment path-escaped.
  static std::string repo_scope(const std::string& owner, const std::string& name);
  /// `orgs/<org>`, path-escaped.
  static std::string org_scope(const std::string& org);

private:
  http::client_response call(const std::string& method, const std::string& path,
                             std::string body) const;

  http::hook_api_client client_;
  std::string base_url_;
  std::function<std::string()> authorization_;
};

} // namespace ganglion::github::detail
