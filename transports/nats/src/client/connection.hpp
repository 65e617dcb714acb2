#pragma once

// Private: the cnats connection helper of the nats source, the nats trigger and the JetStream
// bus driver. Settings are resolved first (secrets read, PEM loaded), then `connection` makes
// the cnats connection and owns it.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <nats/nats.h>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model.hpp"
#include "ganglion/nats/spec.hpp"

namespace ganglion::nats {

/// How a client proves who it is; at most one member is set.
struct credentials {
  std::optional<std::pair<std::string, std::string>> user_password;
  std::optional<std::string> token;
  /// An nkey seed (`SU…`); the public key is derived from it and the server's nonce signed
  /// in memory.
  std::optional<std::string> nkey_seed;
  /// Path of a `.creds` file (user JWT and seed), read by cnats at each connect.
  std::optional<std::string> credentials_file;
};

/// TLS material as PEM text (empty: not given).
struct tls_settings {
  std::string ca_pem;   ///< trusted CAs; the system roots are trusted too
  std::string cert_pem; ///< client certificate chain
  std::string key_pem;  ///< its private key
  bool skip_verify = false;
};

/// Everything needed to open one connection.
struct connection_settings {
  /// One server URL, or several separated by commas (`nats://a:4222,nats://b:4222`).
  std::string url;
  /// The connection name the server shows; also the prefix of this connection's log lines.
  std::string name;
  credentials auth;
  std::optional<tls_settings> tls;
  std::chrono::milliseconds connect_timeout{2000};
  /// First wait between two reconnection rounds; doubles (with jitter) up to the maximum.
  std::chrono::milliseconds min_reconnect_delay{100};
  std::chrono::milliseconds max_reconnect_delay{5000};
  /// When no server answers at start: true connects in the background and retries forever;
  /// false throws connection_error.
  bool retry_on_failed_connect = true;
  /// Called once, on a cnats thread, when cnats closes the connection on its own (e.g. the
  /// server refused the credentials while reconnecting). Must not destroy the connection
  /// synchronously (post the failure elsewhere).
  std::function<void(const std::string& error)> on_lost;
  /// Called on a cnats thread for asynchronous errors: NATS_SLOW_CONSUMER (once per burst, with
  /// its subscription), NATS_NOT_PERMITTED … Default: one warning per distinct status.
  std::function<void(natsSubscription* subscription, natsStatus status)> on_async_error;
};

/// A connection that cannot be made: bad settings, refused credentials, TLS failure.
class connection_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads the secrets of `auth` (the first kind set: basic, token, nkey, credential). `field` is
/// the YAML path used in messages (`nats.auth`). Throws connection_error naming the secret.
credentials resolve_credentials(const auth_spec& auth, const core::secret_store* secrets,
                                const std::string& field);

/// Reads the PEM secrets of `tls`. Throws connection_error naming the secret.
tls_settings resolve_tls(const dsl::tls_config& tls, const core::secret_store* secrets,
                         const std::string& field);

/// `url` with any `user:password@` replaced by `***@`, for logs and errors.
std::string redact_url(const std::string& url);

/// cnats' explanation of the last error on this thread, or the text of `status`.
std::string status_text(natsStatus status);

/// One cnats connection with unlimited reconnection (exponential backoff, jitter) and one log
/// line per state change: connected, disconnected, reconnected, closed. Destroying it closes
/// the connection and waits until cnats has run its last callback.
class connection {
public:
  /// Connects. When no server answers and `retry_on_failed_connect` is set, returns at once
  /// and connects in the background. Throws connection_error otherwise (refused credentials,
  /// TLS failure, bad URL: these are not retried).
  explicit connection(connection_settings settings);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /// The cnats connection (valid until destruction).
  natsConnection* get() const noexcept { return nc_; }
  /// True while connected to a server (not connecting, reconnecting or closed).
  bool connected() const;
  /// Why the connection is not usable: cnats' last error, or its status.
  std::string last_error() const;
  /// The settings it was made with.
  const connection_settings& settings() const;

  struct state;

private:
  std::unique_ptr<state> state_;
  natsConnection* nc_ = nullptr;
};

/// Opens a connection (see connection::connection).
std::unique_ptr<connection> connect(connection_settings settings);

} // namespace ganglion::nats
