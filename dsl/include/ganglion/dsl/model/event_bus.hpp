#pragma once

// The EventBus model: the JetStream and Kafka buses.

#include <cstdint>
#include <optional>
#include <string>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

/// The settings of the JetStream stream that carries the events (`streamConfig`; ganglion's
/// defaults differ from Argo's where Argo's can lose accepted events, see docs/buses.md).
struct jetstream_stream_settings {
  std::int32_t replicas = 1;
  std::int64_t max_msgs = -1;
  std::int64_t max_age_ns = 168ll * 3600 * 1000000000; ///< 168h
  std::int64_t max_bytes = -1;
  std::int64_t duplicates_ns = 300ll * 1000000000; ///< the Nats-Msg-Id dedup window, 300s
  std::string retention = "limits";                ///< limits | interest | workqueue
  std::string discard = "new";                     ///< new (refuse when full) | old
};

/// `spec.jetstream` / `spec.jetstreamExotic`: a NATS JetStream bus.
struct jetstream_bus {
  /// Server URL(s), comma-separated. `spec.jetstream` (a cluster Argo's controller would
  /// deploy) has none: the `--bus-url` flag gives it.
  std::string url;
  /// `accessSecret`: `username`/`password` (YAML, as Argo writes it) or a bare token.
  std::optional<secret_key_selector> access_secret;
  std::optional<tls_config> tls;
  jetstream_stream_settings stream;
  std::string stream_name = "default"; ///< Argo's stream name; subjects `<stream>.<source>.<event>`
  std::int64_t max_payload = 1048576;
};

/// `spec.kafka`: a Kafka bus.
struct kafka_bus {
  std::string url;   ///< comma-separated bootstrap brokers
  std::string topic; ///< default `<namespace>-<eventbus name>` (`argo-events-default`)
  std::string version;
  std::optional<tls_config> tls;
  std::optional<sasl_config> sasl;
  std::optional<kafka_consumer_group> consumer_group;
};

/// The EventBus spec: which bus, and its settings.
struct event_bus_spec {
  std::string type; ///< nats | jetstream | jetstreamExotic | kafka
  std::string json; ///< the bus's spec as JSON text
  std::optional<jetstream_bus> jetstream; ///< jetstream and jetstreamExotic
  std::optional<kafka_bus> kafka;
};

/// An EventBus document.
struct event_bus {
  object_meta metadata;
  event_bus_spec spec;
};

} // namespace ganglion::dsl
