#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/listen.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::http {

/// The `webhook` source: serves `spec.webhook.<event>` (endpoint, method, port) on `bind_host`
/// through `servers`, and publishes each accepted request as a CloudEvent with data
/// `{"header":…,"body":…,"metadata":…}`. Answers 200 only once the bus accepted the event,
/// 503 with `Retry-After` when it is saturated or stopping, 400/401/405/413 for bad requests.
/// Throws core::source_error when the spec cannot run (bad port, missing secret, port in use).
/// With `listen`, every webhook is served on that one address, routed by its endpoint, in plain
/// HTTP: the manifest's `port` is not bound and its TLS not used (the spec step says so).
core::source_factory make_webhook_source_factory(std::shared_ptr<server_pool> servers,
                                                 std::string bind_host,
                                                 std::optional<listen_address> listen = {});

/// The webhook source's check step (also run when a source starts): the event exists, an
/// absolute endpoint, a method, a positive maxPayloadSize, a port 1-65535, a TLS pair, no
/// filter.expression. Binds nothing and reads no secret.
std::vector<std::string> check_webhook_source(const core::source_context& ctx);

} // namespace ganglion::http
