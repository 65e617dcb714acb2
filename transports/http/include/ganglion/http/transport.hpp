#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/listen.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::http {

/// Settings of the HTTP transport.
struct runtime_options {
  server_options server;
  client_options client;
  /// Address webhooks listen on (Argo listens on every interface).
  std::string bind_host = "0.0.0.0";
  /// When set, every webhook is served on this one address, routed by endpoint, instead of on
  /// the ports the manifests name (`run --listen`, `$PORT`).
  std::optional<listen_address> listen;
};

/// The HTTP transport's shared machinery: one server pool (webhooks, admin) and one client
/// (HTTP triggers). Keep it alive longer than the engine that uses it.
struct runtime {
  /// Starts the server io threads and the client thread.
  explicit runtime(runtime_options options = {});

  std::shared_ptr<server_pool> servers;
  std::shared_ptr<http::client> requests;
  std::string bind_host;
  std::optional<listen_address> listen;
};

/// Registers the `webhook` source and the `http` trigger.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        std::shared_ptr<runtime> rt);

} // namespace ganglion::http
