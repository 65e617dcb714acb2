#pragma once

// The http kind's model: `spec.webhook.<event>` of an EventSource and `template.http` of a
// trigger, as its spec steps read them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/dsl/model/trigger.hpp"

namespace ganglion::http {

/// `spec.webhook.<event>`: an HTTP endpoint (Argo's WebhookContext).
struct webhook_spec {
  std::string endpoint;
  std::string method;
  std::string port;
  std::string url;
  std::optional<dsl::secret_key_selector> server_cert_secret;
  std::optional<dsl::secret_key_selector> server_key_secret;
  std::optional<dsl::secret_key_selector> auth_secret;
  std::int64_t max_payload_size = 1048576;
  /// The largest maxPayloadSize ganglion accepts: every connection may hold that much.
  static constexpr std::int64_t max_payload_limit = std::int64_t{64} << 20;
  std::map<std::string, std::string> metadata;
};

/// `template.http` (its `parameters` and `payload` are the core's: dsl::trigger_action).
struct trigger_spec {
  std::string url;
  std::string method = "POST";
  std::map<std::string, std::string> headers;
  std::vector<dsl::secure_header> secure_headers;
  std::optional<dsl::basic_auth> basic_auth;
  std::optional<dsl::tls_config> tls;
  std::int64_t timeout_seconds = 60;
  /// `dynamicHeaders`: parameters whose `dest` names a header.
  std::vector<dsl::trigger_parameter> dynamic_headers;
  /// `host`: the Host header to send (virtual hosting).
  std::string host;
};

/// The spec step of the webhook source (reads and checks `spec.webhook.<event>`; an event
/// holds its port and endpoint alone). With `one_port` (`--listen`, every webhook on one
/// port) an event holds its endpoint alone, and TLS settings are reported as not used.
dsl::kind_spec webhook_spec_step(bool one_port = false);

/// The spec step of the http trigger (reads and checks `template.http`).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::http
