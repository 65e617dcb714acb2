#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ganglion::test {

/// A TCP proxy on a free 127.0.0.1 port that forwards every connection to 127.0.0.1:<target>,
/// and cuts the line on demand the ways a network fails: drop(), stall(), reset(). One thread,
/// poll-based. Each call returns once the proxy acts on it. Not copyable.
class tcp_proxy {
public:
  /// Starts listening and forwarding to `target_port`. Throws std::runtime_error.
  explicit tcp_proxy(std::uint16_t target_port);
  /// Closes every connection and stops the thread.
  ~tcp_proxy();
  tcp_proxy(const tcp_proxy&) = delete;
  tcp_proxy& operator=(const tcp_proxy&) = delete;

  /// The port clients connect to.
  std::uint16_t port() const;
  /// `127.0.0.1:<port>`.
  std::string address() const;

  /// Closes every connection (FIN to both ends) and refuses new ones (the port stops
  /// listening: connect() fails with ECONNREFUSED) until restore().
  void drop();
  /// Keeps every connection open but forwards nothing, in either direction, on them or on new
  /// ones, until restore(): a peer that went silent.
  void stall();
  /// Aborts every connection with a TCP RST to both ends; new connections are forwarded.
  void reset();
  /// Forwards again: listens again after drop(), resumes forwarding after stall().
  void restore();

  /// Connections open now.
  std::size_t connections() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
