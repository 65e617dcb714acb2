#pragma once

// GitLab's project and group webhooks REST API (list, add, delete), called as go-gitlab
// (gitlab.com/gitlab-org/api/client-go) calls it, on the http transport's libcurl client.

#include <cstdint>
#include <string>
#include <vector>

#include "client/hook_options.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_keeper.hpp"

namespace ganglion::gitlab::detail {

/// go-gitlab's API root for `base_url`: a `/` appended, then `api/v4/` unless the path ends
/// with it.
std::string api_root(std::string base_url);

/// One hook as the list call returns it.
struct hook {
  std::int64_t id = 0;
  std::string url;
};

/// The hooks API at `root` (api_root), each call with `PRIVATE-TOKEN: <token>`, blocking the
/// calling thread (never the client's).
class hooks_api {
public:
  /// Calls through `client`.
  hooks_api(http::hook_api_client client, std::string root, std::string token);

  /// `GET <scope>/hooks` (`scope`: `projects/<id>` or `groups/<id>`, from project_scope and
  /// group_scope), its first page. Throws http::hook_error.
  std::vector<hook> list(const std::string& scope) const;
  /// `POST <scope>/hooks` with `body` (hook_options); the new hook's id. Throws
  /// http::hook_error.
  std::int64_t add(const std::string& scope, const std::string& body) const;
  /// `DELETE <scope>/hooks/<id>`. Throws http::hook_error.
  void remove(const std::string& scope, std::int64_t id) const;

  /// `projects/<id or path-escaped path>`.
  static std::string project_scope(const std::string& project);
  /// `groups/<id or path-escaped path>`.
  static std::string group_scope(const std::string& group);

private:
  http::client_response call(const std::string& method, const std::string& path,
                             std::string body) const;

  http::hook_api_client client_;
  std::string root_;
  std::string token_;
};

} // namespace ganglion::gitlab::detail
