#pragma once

#include <cstdint>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// True when 127.0.0.1:`port` accepts a TCP connection now.
bool accepts_connections(std::uint16_t port);

/// Waits until `process` listens on 127.0.0.1:`port`. Throws std::runtime_error naming `what`,
/// with what the process logged, when it exits first or 15 s pass.
void wait_listening(child_process& process, std::uint16_t port, const std::string& what);

} // namespace ganglion::test
