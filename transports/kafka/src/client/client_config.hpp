#pragma once

// Not installed: librdkafka configuration shared by the kafka source, trigger and bus driver.
//
// Use:
//   client_settings s{.name = "eventsource orders/created", .url = spec.url, .tls = spec.tls, …};
//   auto cfg = make_client_config(s, secrets.get());        // throws config_error
//   set_property(cfg, "group.id", "g");                      // role-specific properties
//   auto rk = make_handle(RD_KAFKA_CONSUMER, std::move(cfg)); // throws config_error
//   … poll rk regularly: errors and statistics (broker state) are served by the poll calls.
//
// The handle's opaque is the client_hooks; a callback that needs its owner calls user_of(opaque)
// (set client_hooks::user before make_handle).

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <librdkafka/rdkafka.h>

#include "client/connection_log.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::kafka::detail {

/// The connection fields Argo's Kafka source, trigger and bus share.
struct client_settings {
  /// Who the client is in log lines, e.g. `eventsource orders/created`.
  std::string name;
  /// `url`: bootstrap brokers, comma-separated.
  std::string url;
  std::optional<dsl::tls_config> tls;
  std::optional<dsl::sasl_config> sasl;
  /// `version`: the Kafka version (`2.8.0`); empty or ≥ 0.10: negotiated with the broker.
  std::string version;
  /// librdkafka properties set last, over everything above (the source's `config`, tests).
  std::map<std::string, std::string> properties;
};

/// A setting librdkafka refuses or a secret that cannot be read; the message names the field.
class config_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Per-client state librdkafka's callbacks reach through the handle's opaque. Must outlive the
/// handle (make_handle keeps it with the handle).
struct client_hooks {
  /// Hooks whose log lines name the client `name`.
  explicit client_hooks(std::string name) : log(std::move(name)) {}
  connection_log log;
  /// The owner's own pointer, for its rebalance or delivery callbacks (see user_of()).
  void* user = nullptr;
  /// Set when the handle's destruction is left to finish in the background: its log,
  /// error and statistics callbacks then log nothing.
  std::atomic<bool> quiet{false};
};

/// Destroys `rk` (never closing a consumer again: see close_consumer()). librdkafka's destroy
/// waits for its group's outstanding commits, which a cluster that is gone never answers; after
/// `close_timeout` the destruction is left to finish on a thread of its own (with `hooks`,
/// silenced) so that a shutdown keeps its grace.
void destroy_handle(rd_kafka_t* rk, std::unique_ptr<client_hooks> hooks) noexcept;

/// Deletes an rd_kafka_conf_t that was not handed to rd_kafka_new.
struct conf_deleter {
  /// Destroys `conf`.
  void operator()(rd_kafka_conf_t* conf) const noexcept { rd_kafka_conf_destroy(conf); }
};
using conf_ptr = std::unique_ptr<rd_kafka_conf_t, conf_deleter>;

/// An rd_kafka_conf_t and the hooks its callbacks use.
struct client_config {
  conf_ptr conf;
  std::unique_ptr<client_hooks> hooks;
};

/// The configuration of `s`: `bootstrap.servers`; `security.protocol` from tls / sasl; TLS CA,
/// client certificate and key (PEM) from secrets, verification off with insecureSkipVerify;
/// SASL PLAIN / SCRAM-SHA-256 / SCRAM-SHA-512 with user and password from secrets; the
/// version; log, error and statistics callbacks feeding a connection_log; then `properties`.
/// `secrets` may be null when no secret is referenced. Throws config_error.
client_config make_client_config(const client_settings& s, const core::secret_store* secrets);

/// Sets one property; throws config_error naming `field` (default: the property) on refusal.
void set_property(client_config& cfg, const std::string& name, const std::string& value,
                  const std::string& field = {});

/// The owner's pointer (client_hooks::user) given a librdkafka callback's `opaque`.
inline void* user_of(void* opaque) noexcept {
  return opaque ? static_cast<client_hooks*>(opaque)->user : nullptr;
}

/// A librdkafka handle together with the hooks its callbacks use; destroys the handle first.
class handle {
public:
  /// No handle.
  handle() = default;
  /// Owns `rk`, whose opaque is `hooks`.
  handle(rd_kafka_t* rk, std::unique_ptr<client_hooks> hooks)
    : hooks_(std::move(hooks)), rk_(rk) {}
  /// Takes over `other`'s handle.
  handle(handle&& other) noexcept { *this = std::move(other); }
  /// Destroys the handle held, then takes over `other`'s.
  handle& operator=(handle&& other) noexcept {
    reset();
    rk_ = std::exchange(other.rk_, nullptr);
    hooks_ = std::move(other.hooks_);
    return *this;
  }
  /// Destroys the handle.
  ~handle() { reset(); }

  /// The raw handle (null when empty).
  rd_kafka_t* get() const noexcept { return rk_; }
  /// Its connection log.
  connection_log& log() const noexcept { return hooks_->log; }
  /// Destroys the handle (destroy_handle: bounded). A consumer is not closed again here:
  /// close it first with close_consumer(), which bounds the wait for its group.
  void reset() noexcept {
    if (rk_)
      destroy_handle(rk_, std::move(hooks_));
    rk_ = nullptr;
    hooks_.reset();
  }

private:
  std::unique_ptr<client_hooks> hooks_;
  rd_kafka_t* rk_ = nullptr;
};

/// rd_kafka_new of `type` with `cfg` (consumed). Throws config_error with librdkafka's reason.
handle make_handle(rd_kafka_type_t type, client_config cfg);

/// How long a shutdown waits for a consumer's last commit and for its group's leave: a
/// cluster that is gone must not hold the process past --shutdown-grace.
inline constexpr std::chrono::milliseconds close_timeout{500};

/// Closes consumer `rk` (revokes its assignment through its rebalance callback, leaves its
/// group) and waits up to `timeout`; false when it did not finish in time (the cluster is
/// unreachable: the group forgets this member after its session timeout).
bool close_consumer(rd_kafka_t* rk, std::chrono::milliseconds timeout = close_timeout);

} // namespace ganglion::kafka::detail
