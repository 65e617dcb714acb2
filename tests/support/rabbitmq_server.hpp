#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// How to start a rabbitmq_server; the defaults are those of `rabbitmq_server()`.
struct rabbitmq_server_options {
  /// With `tls_key_file`: a TLS listener too (tls_port()), with this certificate (PEM), no
  /// client certificate asked for.
  std::string tls_cert_file;
  std::string tls_key_file;
};

/// A real RabbitMQ broker (Debian's rabbitmq-server) on free 127.0.0.1 ports with everything
/// of its own in a fresh directory: node name `ganglion-<random>@localhost`, AMQP, distribution
/// and epmd ports, mnesia and log directories, configuration, Erlang cookie (HOME), no plugins.
/// Its epmd is a child of the test, stopped with it: no daemon is left behind. stop() or
/// kill() and start() again keep the ports and the data (a broker restart mid-stream). Starts
/// in several seconds: share one per test binary.
class rabbitmq_server {
public:
  /// Starts the broker and waits until it accepts AMQP connections. Throws std::runtime_error.
  rabbitmq_server() : rabbitmq_server(rabbitmq_server_options{}) {}
  /// Starts the broker with `options`. Throws std::runtime_error.
  explicit rabbitmq_server(rabbitmq_server_options options);
  ~rabbitmq_server();
  rabbitmq_server(const rabbitmq_server&) = delete;
  rabbitmq_server& operator=(const rabbitmq_server&) = delete;

  /// `amqp://guest:guest@127.0.0.1:<port>/`.
  std::string url() const;
  std::uint16_t port() const noexcept { return port_; }
  /// The TLS listener's port (0 without TLS).
  std::uint16_t tls_port() const noexcept { return tls_port_; }
  /// Stops the broker (SIGTERM, then SIGKILL after 20 s).
  void stop();
  /// Kills the broker at once (SIGKILL): what it had not written to disk is gone.
  void kill();
  /// Starts it again on the same ports and data.
  void start();
  /// What the broker printed.
  std::string output() const;

private:
  std::uint16_t port_;
  std::uint16_t tls_port_ = 0;
  std::uint16_t dist_port_;
  std::uint16_t epmd_port_;
  std::string dir_;
  std::string node_;
  std::unique_ptr<child_process> epmd_;
  std::unique_ptr<child_process> broker_;
};

} // namespace ganglion::test
