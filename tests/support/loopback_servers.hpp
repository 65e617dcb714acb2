#pragma once

// Small real servers on 127.0.0.1 for the trigger sources' tests, one connection at a time on
// a thread of their own: canned answers by path (the url source), git's smart HTTP for the
// repositories under a folder (git-http-backend) and an HTTPS front (a test CA's certificate
// for localhost) for a plain HTTP server behind it. Beast and Asio stay in the .cpp.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace ganglion::test {

/// What a file_server answers at one path.
struct canned_response {
  unsigned status = 200;
  std::string body;
  /// `Location`, for a redirect.
  std::string location = {};
  /// How long the answer is held back.
  std::chrono::milliseconds delay{0};
};

/// Answers GETs from a table of paths (404 `not found` for the rest) until destroyed.
class file_server {
public:
  file_server();
  ~file_server();
  file_server(const file_server&) = delete;
  file_server& operator=(const file_server&) = delete;

  /// Answers GET `path` with `response` from now on.
  void put(const std::string& path, canned_response response);
  /// `http://127.0.0.1:<port><path>`.
  std::string url(const std::string& path) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// git's smart HTTP, no authentication, for the repositories under `root`.
class git_http_server {
public:
  explicit git_http_server(std::string root);
  ~git_http_server();
  git_http_server(const git_http_server&) = delete;
  git_http_server& operator=(const git_http_server&) = delete;

  /// `http://127.0.0.1:<port>/<name>`: the repository in folder `<name>` of the root.
  std::string repo_url(const std::string& name) const;
  /// The bound port.
  std::uint16_t port() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// HTTPS (certificate for localhost from its own CA) in front of the plain HTTP server at
/// `backend_port`: each request read, sent there, its answer returned.
class tls_front {
public:
  explicit tls_front(std::uint16_t backend_port);
  ~tls_front();
  tls_front(const tls_front&) = delete;
  tls_front& operator=(const tls_front&) = delete;

  /// `https://localhost:<port>`.
  std::string base_url() const;
  /// A PEM file holding the CA that signed the certificate.
  const std::string& ca_file() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
