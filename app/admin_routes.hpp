#pragma once

#include <string>
#include <vector>

#include "ganglion/core/engine.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::app {

class reloader;

/// Serves /health, /ready, /metrics, /v1/status, /v1/explain and — with `reloads` —
/// `POST /v1/reload` for `engine` on `host_port` (HOST:PORT). Throws when the address is
/// malformed or in use.
std::vector<http::route> serve_admin(http::runtime& transport, const std::string& host_port,
                                     core::engine& engine, reloader* reloads = nullptr);

} // namespace ganglion::app
