#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ganglion::test {

/// One request the GitLab stand-in received.
struct gitlab_request {
  std::string method;
  std::string target; ///< as sent: `/api/v4/projects/whynowy%2Ftest/hooks`
  std::string private_token;
  std::string content_type;
  std::string body;
};

/// One hook the GitLab stand-in keeps.
struct gitlab_hook {
  std::int64_t id = 0;
  std::string scope; ///< `projects/<id>` or `groups/<id>`, as sent (escaped)
  std::string url;
  std::string body; ///< the JSON body it was added with
};

/// A GitLab stand-in on 127.0.0.1, one request per connection on its own thread: the project
/// and group webhooks API (`GET|POST /api/v4/{projects|groups}/<id>/hooks`, `DELETE
/// …/hooks/<hook id>`), in memory. A request needs `PRIVATE-TOKEN` with the token given (401
/// `{"message":"401 Unauthorized"}` otherwise); a scope marked missing answers 404
/// `{"message":"404 Project Not Found"}`; while down every call answers 502. An add needs a JSON
/// object with `url`, else 400.
class gitlab_server {
public:
  /// Accepts `token`.
  explicit gitlab_server(std::string token);
  ~gitlab_server();
  gitlab_server(const gitlab_server&) = delete;
  gitlab_server& operator=(const gitlab_server&) = delete;

  /// `http://127.0.0.1:<port>`.
  std::string base_url() const;
  /// Requests to `scope` answer 404 from now on.
  void set_missing(const std::string& scope);
  /// While `down`, every call answers 502.
  void set_down(bool down);
  /// Adds a hook as if created earlier; returns its id.
  std::int64_t add(const std::string& scope, const std::string& url);
  /// The hooks kept now.
  std::vector<gitlab_hook> hooks() const;
  /// Every request received so far.
  std::vector<gitlab_request> requests() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
