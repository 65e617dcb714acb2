#pragma once

// Private: a non-blocking TCP socket, optionally wrapped in OpenSSL TLS, read and written with
// deadlines; a wake fd interrupts its reads.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

#include "client/address.hpp"
#include "client/connection.hpp"

namespace ganglion::redis {

/// One connected socket (plain or TLS).
class stream_socket {
public:
  /// The clock of the deadlines.
  using clock = std::chrono::steady_clock;

  /// Connects to `to` (every address it resolves to, in turn) and handshakes TLS when `tls` is
  /// set (the certificate checked against the host unless skip_verify). Throws connection_error.
  static std::unique_ptr<stream_socket> connect(const host_port& to,
                                                const std::optional<tls_settings>& tls,
                                                clock::time_point deadline, int wake_fd);
  ~stream_socket();
  stream_socket(const stream_socket&) = delete;
  stream_socket& operator=(const stream_socket&) = delete;

  /// Writes all of `data`. Throws connection_error (also past `deadline`).
  void write_all(std::string_view data, clock::time_point deadline);
  /// Reads what is there: > 0 bytes, or 0 when `deadline` passed or the wake fd is readable.
  /// Throws connection_error when the peer closed or the socket failed.
  std::size_t read_some(char* buffer, std::size_t size, clock::time_point deadline);

private:
  struct impl;
  explicit stream_socket(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::redis
