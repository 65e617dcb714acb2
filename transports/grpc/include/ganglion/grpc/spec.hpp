#pragma once

// The grpc kinds' model: `spec.generic.<event>` of an EventSource and `template.custom` of a
// trigger, as their spec steps read them.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::grpc {

/// `spec.generic.<event>` (Argo's GenericEventSource): the engine calls
/// `Eventing.StartEventSource` on `url` and publishes every event of the stream.
struct generic_spec {
  std::string url;    ///< `host:port`, or a gRPC target (`dns:///`, `ipv4:`, `ipv6:`)
  std::string config; ///< sent to the service as EventSource.config
  bool insecure = false;
  bool json_body = false;
  std::map<std::string, std::string> metadata;
  /// The bearer token sent as `authorization: Bearer <token>`.
  std::optional<dsl::secret_key_selector> auth_secret;
};

/// `template.custom` (Argo's CustomTrigger; its `parameters` and `payload` are the core's:
/// dsl::trigger_action).
struct custom_spec {
  std::string server_url;
  bool secure = false;
  /// The PEM certificate (a CA, or the server's own) that verifies the server when `secure`.
  std::optional<dsl::secret_key_selector> cert_secret;
  std::string server_name_override;
  /// Sent to FetchResource as YAML.
  std::map<std::string, std::string> spec;
};

/// The spec step of the generic source (reads and checks `spec.generic.<event>`).
dsl::kind_spec source_spec_step();

/// The spec step of the custom trigger (reads and checks `template.custom`).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::grpc
