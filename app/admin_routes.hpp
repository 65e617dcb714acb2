#pragma once

#include <string>
#include <vector>

#include "admin_access.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::app {

class reloader;

/// Serves /health, /ready, /metrics, /v1/status, /v1/explain,
/// `POST /v1/sources/{eventsource}/{event}/restart` and — with `reloads` — `POST /v1/reload`
/// for `engine` on `host_port` (HOST:PORT), each request checked as `access` says (its
/// bound_host is taken from `host_port`); answers carry no URL userinfo. Throws when the
/// address is malformed or in use.
std::vector<http::route> serve_admin(http::runtime& transport, const std::string& host_port,
                                     core::engine& engine, admin_access access = {},
                                     reloader* reloads = nullptr);

/// `/ready` for `engine` on the --listen address (every listener answers /health itself):
/// 200 once every source listens, else 503 with what blocks it. Throws when the address is in
/// use.
http::route serve_readiness(http::runtime& transport, const http::listen_address& at,
                            core::engine& engine);

} // namespace ganglion::app
