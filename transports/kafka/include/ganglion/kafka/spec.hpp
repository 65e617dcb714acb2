#pragma once

// The kafka kinds' models: `spec.kafka.<event>` of an EventSource, `template.kafka` of a
// trigger and `spec.kafka` of an EventBus, as their spec steps read them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::kafka {

/// `spec.kafka.<event>`: a topic read through a consumer group or from one partition.
struct event_spec {
  std::string url;       ///< comma-separated bootstrap brokers
  std::string topic;
  std::string partition; ///< single-partition mode (no consumerGroup)
  std::optional<dsl::kafka_consumer_group> consumer_group;
  std::int64_t limit_events_per_second = 0; ///< 0: no limit
  std::string version;
  std::optional<dsl::tls_config> tls;
  std::optional<dsl::sasl_config> sasl;
  bool json_body = false; ///< the body is JSON (else base64 of the bytes, as Go marshals []byte)
  std::map<std::string, std::string> config; ///< extra librdkafka properties (ganglion)
  std::map<std::string, std::string> metadata;
};

/// `template.kafka`: produce a message per firing (its `parameters` and `payload` are the
/// core's: dsl::trigger_action).
struct trigger_spec {
  std::string url;
  std::string topic;
  std::optional<std::int32_t> partition; ///< deprecated in Argo; honoured when set
  std::string partitioning_key;          ///< the message key (empty: no key)
  /// 1 (the leader) | -1 (all in-sync replicas). Argo's producer reads absent and 0 as -1
  /// (sarama.WaitForAll), whatever its API comment says; so does ganglion.
  std::int32_t required_acks = -1;
  bool compress = false;                 ///< snappy
  std::int32_t flush_frequency_ms = 500; ///< Argo's batching; ganglion sends at once (linger 5 ms)
  std::string version;
  std::optional<dsl::tls_config> tls;
  std::optional<dsl::sasl_config> sasl;
  std::map<std::string, std::string> headers;
  std::vector<dsl::secure_header> secure_headers;
};

/// An EventBus `spec.kafka`: a Kafka bus.
struct bus_spec {
  std::string url;   ///< comma-separated bootstrap brokers
  std::string topic; ///< default `<namespace>-<eventbus name>` (`argo-events-default`)
  std::string version;
  std::optional<dsl::tls_config> tls;
  std::optional<dsl::sasl_config> sasl;
  std::optional<dsl::kafka_consumer_group> consumer_group;
};

/// The spec step of the kafka source (reads and checks `spec.kafka.<event>` into event_spec).
dsl::kind_spec source_spec_step();

/// The spec step of the kafka trigger (reads and checks `template.kafka` into trigger_spec).
dsl::kind_spec trigger_spec_step();

/// The spec step of the EventBus `spec.kafka` (reads and checks it into bus_spec).
dsl::kind_spec bus_spec_step();

} // namespace ganglion::kafka
