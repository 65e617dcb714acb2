#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// A real RabbitMQ broker (Debian's rabbitmq-server) on free 127.0.0.1 ports with everything
/// of its own in a fresh directory: node name `ganglion-<random>@localhost`, AMQP, distribution
/// and epmd ports, mnesia and log directories, configuration, Erlang cookie (HOME), no plugins.
/// Its epmd is a child of the test, stopped with it: no daemon is left behind. stop() or
/// kill() and start() again keep the ports and the data (a broker restart mid-stream). Starts
/// in several seconds: share one per test binary.
class rabbitmq_server {
public:
  /// Starts the broker and waits until it accepts AMQP connections. Throws std::runtime_error.
  rabbitmq_server();
  ~rabbitmq_server();
  rabbitmq_server(const rabbitmq_server&) = delete;
  rabbitmq_server& operator=(const rabbitmq_server&) = delete;

  /// `amqp://guest:guest@127.0.0.1:<port>/`.
  std::string url() const;
  std::uint16_t port() const noexcept { return port_; }
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
  std::uint16_t dist_port_;
  std::uint16_t epmd_port_;
  std::string dir_;
  std::string node_;
  std::unique_ptr<child_process> epmd_;
  std::unique_ptr<child_process> broker_;
};

} // namespace ganglion::test
