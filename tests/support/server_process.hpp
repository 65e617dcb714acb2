#pragma once

// What the launchers of real servers (nats_server, mosquitto_server …) and their TLS tests
// share: waiting until the process listens on loopback, stopping it, a server certificate.

#include <cstdint>
#include <memory>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// True when something accepts TCP connections on 127.0.0.1:`port`.
bool accepts_on_loopback(std::uint16_t port);

/// Waits (15 s at most) until `process` accepts connections on 127.0.0.1:`port`. Throws
/// std::runtime_error naming `what`, with the process's output, when it exits first or does not
/// listen in time.
void wait_listening(child_process& process, std::uint16_t port, const std::string& what);

/// Stops `process` (SIGTERM, then SIGKILL after 5 s) and resets it; nothing when it is null.
void stop_process(std::unique_ptr<child_process>& process);

/// Writes `dir`/cert.pem and `dir`/key.pem (creating `dir`): a self-signed certificate for
/// 127.0.0.1 (CN and IP SAN), valid one day, made with `openssl`. Throws std::runtime_error.
void write_self_signed_certificate(const std::string& dir);

} // namespace ganglion::test
