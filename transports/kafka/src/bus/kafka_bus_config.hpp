#pragma once

// Not installed: the Kafka bus driver's validated settings, topic and group names, and the
// librdkafka configuration of each of its clients.

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "client/client_config.hpp"
#include "ganglion/kafka/kafka_bus.hpp"

namespace ganglion::kafka::detail {

/// The bus's spec and options, checked, with the names derived from them.
struct bus_settings {
  bus_spec spec;
  kafka_bus_options options;
  std::shared_ptr<const core::secret_store> secrets;
  std::string topic;        ///< events, keyed `<eventSourceName>.<eventName>`
  std::string state_topic;  ///< `<topic>-state`, compacted
  std::string owners_topic; ///< `<topic>-owners`, one partition per shard
  std::string group_prefix; ///< consumerGroup.groupName, or the topic

  /// The consumer group holding `sensor`'s position: `<groupName or topic>-<sensor>`.
  std::string group_of(const std::string& sensor) const;

  /// The configuration of one client of the bus; `role` names it in logs and in `client.id`
  /// (`ganglion-<replica>-<role>`). Throws config_error.
  client_config client(const std::string& role) const;
};

/// For the bus's many per-sensor clients: connection errors are left to the producer's and the
/// ownership client's logs (one line per outage per replica, not one per sensor); other errors
/// still reach the client's connection_log; no statistics, no librdkafka log lines below
/// critical.
void quiet_connection_errors(client_config& cfg);

/// Checks `spec` and `options` (and that the secrets they reference can be read). Throws
/// std::runtime_error (config_error) whose message starts with `kafka bus:` and names the field.
bus_settings make_bus_settings(const bus_spec& spec,
                               std::shared_ptr<const core::secret_store> secrets,
                               kafka_bus_options options);

/// `duration` in whole milliseconds, as librdkafka properties take it.
std::string ms(std::chrono::milliseconds duration);

} // namespace ganglion::kafka::detail
