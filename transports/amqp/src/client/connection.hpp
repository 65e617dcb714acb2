#pragma once

// Private: one librabbitmq connection with its channel 1, and the settings it is opened with
// (the url, credentials and TLS files resolved from the manifest's secrets).

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <amqp.h>

#include "ganglion/amqp/spec.hpp"
#include "ganglion/core/secrets.hpp"

namespace ganglion::amqp {

/// TLS files for librabbitmq (it takes paths), as the secrets store provides them.
struct tls_files {
  std::string ca_file;   ///< empty: the system roots
  std::string cert_file; ///< client certificate chain (with key_file)
  std::string key_file;
  bool skip_verify = false;
};

/// Everything needed to open one connection.
struct connection_settings {
  std::string url; ///< amqp:// or amqps://, with the user and password it may carry
  /// `auth`: replaces the url's user and password (Argo: SASL PLAIN from the secrets).
  std::optional<std::pair<std::string, std::string>> user_password;
  /// Used for amqps:// urls only; an amqps:// url without it verifies with the system roots.
  std::optional<tls_files> tls;
  std::chrono::milliseconds connect_timeout{5000};
  int heartbeat_seconds = 10; ///< Argo's
  std::string name;           ///< connection_name the broker shows; the log prefix
};

/// A connection that cannot be made or was lost: bad settings, refused login, TLS failure,
/// closed socket, a channel the broker closed.
class connection_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The url (from `url` or `urlSecret`), `auth` and `tls` of `spec` with their secrets read.
/// Throws connection_error naming the secret that is missing.
connection_settings resolve_settings(const event_spec& spec, const core::secret_store* secrets);

/// `url` with any `user:password@` replaced by `***@`, for logs and errors.
std::string redact_url(const std::string& url);

/// What a failed librabbitmq call says: the library's error text or the broker's close reason.
std::string reply_text(const amqp_rpc_reply_t& reply);

/// An open connection (logged in, channel 1 open). Not thread-safe: one thread uses it.
/// Destroying it closes the channel and the connection (without waiting long for answers).
class connection {
public:
  /// Connects, logs in and opens channel 1. Throws connection_error.
  explicit connection(const connection_settings& settings);
  /// Closes channel 1 and the connection (waiting 1 s at most for each answer).
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /// The librabbitmq connection.
  amqp_connection_state_t get() const noexcept { return state_; }
  /// Throws connection_error "<what>: <reply text>" unless `reply` is normal.
  void expect(const amqp_rpc_reply_t& reply, const std::string& what) const;
  /// Throws connection_error "<what>: <status text>" unless `status` is AMQP_STATUS_OK.
  void expect_status(int status, const std::string& what) const;
  /// The socket, for poll().
  int fd() const;
  /// True when frames are read but not handled yet (poll() would not see them).
  bool buffered() const;

private:
  amqp_connection_state_t state_ = nullptr;
  bool channel_open_ = false;
};

} // namespace ganglion::amqp
