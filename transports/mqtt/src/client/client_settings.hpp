#pragma once

// Private: what one MQTT connection needs, with the secrets of `spec.mqtt.<event>` read.

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <openssl/ssl.h>

#include "client/broker_url.hpp"
#include "client/tls_context.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/mqtt/spec.hpp"

namespace ganglion::mqtt {

/// The broker, the client's identity and its TLS context, ready to connect.
struct client_settings {
  std::string url; ///< as written, for messages
  broker_address address;
  std::string client_id;
  std::optional<std::pair<std::string, std::string>> user_password;
  std::shared_ptr<SSL_CTX> ssl; ///< set when the url's scheme uses TLS
};

/// Parses the url and reads the secrets of `auth` and `tls` (TLS for ssl://, tls://, mqtts://,
/// with the system's roots when `tls` is absent, as Go's client does). Throws connection_error
/// naming the field or secret.
client_settings resolve_settings(const event_spec& spec, const core::secret_store* secrets);

} // namespace ganglion::mqtt
