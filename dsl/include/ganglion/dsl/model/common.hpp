#pragma once

// Parts of the model shared by every kind: metadata, secret references, backoff, and the
// client settings (TLS, SASL, auth) of sources, triggers and buses.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>


namespace ganglion::dsl {

/// Kubernetes object metadata (the parts ganglion uses).
struct object_meta {
  /// The name the engine knows the object by (status, routes, durable state): `metadata.name`,
  /// or `<namespace>/<metadata.name>` for an EventSource or Sensor served from a cluster
  /// (cluster mode), whose names are unique per namespace only.
  std::string name;
  std::string namespace_;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;

  /// `metadata.name` as the manifest writes it (`name` without a cluster object's namespace):
  /// what Argo's events and objects carry, e.g. a CloudEvent's `source`.
  std::string_view argo_name() const noexcept {
    auto slash = name.rfind('/');
    return slash == std::string::npos ? std::string_view{name}
                                      : std::string_view{name}.substr(slash + 1);
  }

  /// `<namespace>/<metadata.name>`, or `metadata.name` when the manifest names no namespace:
  /// whom a dependency of a Sensor in the same namespace can reach.
  std::string namespaced_name() const {
    return namespace_.empty() ? std::string{argo_name()}
                              : namespace_ + "/" + std::string{argo_name()};
  }
};

/// A reference to one key of a Kubernetes Secret (resolved from SECRETS_DIR/<name>/<key>).
struct secret_key_selector {
  std::string name;
  std::string key;
};

/// Exponential backoff (`retryStrategy`, k8s policy backoff).
struct backoff {
  std::optional<std::int64_t> duration_ns; ///< int nanoseconds or a Go duration string
  std::optional<double> factor;
  std::optional<double> jitter;
  std::optional<std::int32_t> steps;
  /// *ganglion*: the longest single wait between attempts (Argo has no cap).
  std::optional<std::int64_t> max_duration_ns;
};

/// `basicAuth` of an HTTP trigger.
struct basic_auth {
  std::optional<secret_key_selector> username;
  std::optional<secret_key_selector> password;
};

/// `secureHeaders[]` of an HTTP trigger (value from a secret or a config map).
struct secure_header {
  std::string name;
  std::optional<secret_key_selector> secret;
  std::optional<secret_key_selector> config_map;
};

/// TLS client settings (`tls`).
struct tls_config {
  std::optional<secret_key_selector> ca_cert_secret;
  std::optional<secret_key_selector> client_cert_secret;
  std::optional<secret_key_selector> client_key_secret;
  bool insecure_skip_verify = false;
  bool enabled = false; ///< TLS with the system roots when no certificate is given
};

/// `sasl` of a Kafka client.
struct sasl_config {
  std::string mechanism = "PLAIN"; ///< PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512 (others refused)
  std::optional<secret_key_selector> user_secret;
  std::optional<secret_key_selector> password_secret;
};

/// `consumerGroup` of a Kafka event source and of the Kafka EventBus.
struct kafka_consumer_group {
  std::string group_name;
  bool oldest = false;             ///< start at the oldest offset when the group has none
  std::string rebalance_strategy;  ///< sticky | roundrobin | range (empty: range)
};

} // namespace ganglion::dsl
