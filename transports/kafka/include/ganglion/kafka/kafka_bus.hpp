#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/kafka/spec.hpp"

namespace ganglion::kafka {

/// Settings of the Kafka bus driver that the EventBus spec does not carry.
struct kafka_bus_options {
  /// This replica's id (unique among the live replicas); empty: `<hostname>-<pid>-<random>`.
  std::string replica_id;
  /// Partitions of the `<topic>-owners` topic when the driver creates it. The shard count is the
  /// topic's partition count, so replicas agree even when an existing topic has another count.
  std::uint32_t shards = 16;
  /// A publish the cluster has not stored by then ends `failed` (`message.timeout.ms`).
  std::chrono::milliseconds message_timeout{30000};
  /// The ownership group's session: a replica that stops heartbeating loses its shards after it.
  std::chrono::milliseconds session_timeout{6000};
  /// The ownership group's heartbeat interval.
  std::chrono::milliseconds heartbeat_interval{1000};
  /// How long a broker holds an idle fetch (`fetch.wait.max.ms`); a real broker answers as soon
  /// as data arrives, so this is no batching delay (librdkafka's mock cluster waits it out).
  std::chrono::milliseconds fetch_max_wait{500};
  /// How long subscribe(), state().load() and forget() wait for the cluster before throwing.
  std::chrono::milliseconds request_timeout{10000};
  /// Publishes (and state stores) queued or in flight at most (`queue.buffering.max.messages`);
  /// beyond it publish answers `saturated`.
  std::size_t max_in_flight = 100000;
  /// Unacknowledged events one subscription holds at most; its partitions pause beyond it.
  std::size_t max_unacknowledged = 100000;
  /// Extra librdkafka properties for every client of the bus (set last).
  std::map<std::string, std::string> properties;
};

/// The Kafka implementation of core::remote_bus (`kind() == "kafka"`) for the EventBus `spec`:
/// events on `spec.topic` keyed `<eventSourceName>.<eventName>`, sensor positions as committed
/// offsets of group `<groupName or topic>-<sensor>`, state in the compacted topic
/// `<topic>-state`, ownership through the consumer group of `<topic>-owners`. Does not wait for
/// the cluster (publishes wait in the producer's queue until it answers); `secrets` may be null
/// when the spec references none. Throws std::runtime_error naming the field when the
/// configuration is invalid.
std::shared_ptr<core::remote_bus> make_kafka_bus(const bus_spec& spec,
                                                 std::shared_ptr<const core::secret_store> secrets,
                                                 kafka_bus_options options);

} // namespace ganglion::kafka
