#pragma once

#include <string>
#include <vector>

#include "ganglion/core/engine.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::app {

/// Serves /health, /ready, /metrics and /v1/status for `engine` on `host_port` (HOST:PORT).
/// Throws when the address is malformed or in use.
std::vector<http::route> serve_admin(http::runtime& transport, const std::string& host_port,
                            core::engine& engine);

} // namespace ganglion::app
