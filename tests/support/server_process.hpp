#pragma once

// Starting and stopping a server process a test runs on a 127.0.0.1 port (nats-server,
// redis-server …), and the self-signed certificate of a TLS test server.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// True when something accepts TCP connections on 127.0.0.1:`port`.
bool accepts(std::uint16_t port);

/// Waits until `process` accepts on every one of `ports` (`limit` at most). Throws
/// std::runtime_error naming `what` with the process's output when it exits or does not listen
/// in time.
void wait_until_accepting(child_process& process, const std::vector<std::uint16_t>& ports,
                          const std::string& what,
                          std::chrono::seconds limit = std::chrono::seconds(15));

/// Waits until `process` accepts on `port` (15 s at most), as above.
inline void wait_until_accepting(child_process& process, std::uint16_t port,
                                 const std::string& what) {
  wait_until_accepting(process, std::vector<std::uint16_t>{port}, what);
}

/// Stops `process` (SIGTERM, then SIGKILL after 5 s) and resets it; nothing when it is null.
void stop_server_process(std::unique_ptr<child_process>& process);

/// Writes a self-signed certificate for 127.0.0.1 (CN and IP SAN, one day) to `dir`/cert.pem
/// and its key to `dir`/key.pem with `openssl req`. Throws std::runtime_error.
void write_self_signed_certificate(const std::string& dir);

} // namespace ganglion::test
