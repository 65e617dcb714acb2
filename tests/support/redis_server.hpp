#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// How to start a redis_server; the defaults are those of `redis_server()`.
struct redis_server_options {
  /// Clients must AUTH with this password (`--requirepass`).
  std::string password;
  /// Serve TLS only, with this certificate and key (PEM files); clients need not present one.
  std::string tls_cert_file;
  std::string tls_key_file;
  /// More command-line arguments.
  std::vector<std::string> extra_args;
};

/// A real `redis-server` on a free 127.0.0.1 port, its data (an append-only file) in a fresh
/// directory; killed when destroyed. stop() and start() again keep the port and the data (a
/// server restart mid-stream: what was written before stop() is there after start()).
class redis_server {
public:
  /// Starts the server and waits until it answers PING. Throws std::runtime_error.
  explicit redis_server(redis_server_options options = {});
  ~redis_server();

  /// `127.0.0.1:<port>` (Argo's hostAddress).
  std::string address() const;
  std::uint16_t port() const noexcept { return port_; }
  /// Stops the server (SIGTERM: it writes its data, then SIGKILL after 5 s).
  void stop();
  /// Starts it again on the same port and data.
  void start();
  /// What the server logged.
  std::string output() const;

private:
  redis_server_options options_;
  std::uint16_t port_;
  std::string data_dir_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
