#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ganglion::test {

/// One request to git's smart HTTP protocol, as a web server hands it to a CGI program.
struct cgi_request {
  std::string method;
  /// The path after the repositories' root (`/repo.git/info/refs`).
  std::string path_info;
  std::string query;
  std::string content_type;
  /// `Content-Encoding` (gzip when the client compressed the body).
  std::string content_encoding;
  /// `Git-Protocol` (protocol v2 when the client asks for it).
  std::string git_protocol;
  std::string remote_user;
  std::string body;
};

/// What git-http-backend answered.
struct cgi_response {
  unsigned status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

/// Runs /usr/lib/git-core/git-http-backend for `request` with the repositories under `root`
/// exported (GIT_HTTP_EXPORT_ALL), no system or global git configuration read; its answer.
/// Throws std::runtime_error when it cannot run or writes no CGI header.
cgi_response run_git_http_backend(const std::string& root, const cgi_request& request);

} // namespace ganglion::test
