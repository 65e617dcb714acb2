#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// How to start a nats_server; the defaults are those of `nats_server()`.
struct nats_server_options {
  bool jetstream = true;
  /// With `password`: clients must log in (`--user`/`--pass`).
  std::string user;
  std::string password;
  /// Clients must present this token (`--auth`).
  std::string token;
  /// Content of a configuration file passed with `-c` (e.g. nkey users, TLS).
  std::string config;
  /// More command-line arguments.
  std::vector<std::string> extra_args;
};

/// A real `nats-server` with JetStream on a free 127.0.0.1 port, its store in a fresh
/// directory; killed when destroyed. stop() and start() again keep the port and the store (a
/// server restart mid-stream).
class nats_server {
public:
  /// Starts the server and waits until it accepts connections. Throws std::runtime_error.
  explicit nats_server(bool jetstream = true);
  /// Starts the server with `options`. Throws std::runtime_error.
  explicit nats_server(nats_server_options options);
  ~nats_server();

  /// `nats://127.0.0.1:<port>`.
  std::string url() const;
  std::uint16_t port() const noexcept { return port_; }
  /// Stops the server (SIGTERM, then SIGKILL after 5 s).
  void stop();
  /// Starts it again on the same port and store.
  void start();
  /// What the server logged.
  std::string output() const;

private:
  nats_server_options options_;
  std::uint16_t port_;
  std::string store_dir_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
