#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// Receives the events a remote bus delivers to one sensor, in batches, on the driver's thread.
/// Each event's `sequence` is its position in the bus (JetStream stream sequence; Kafka
/// partition and offset), unique within the subscription.
using delivery_handler = std::function<void(std::vector<event_ptr>&& events)>;

/// A sensor's durable subscription on a remote bus. Destroying it stops the deliveries; events
/// not acknowledged by then are delivered again later (to this replica or to another).
class remote_subscription {
public:
  virtual ~remote_subscription() = default;

  /// The sensor is done with these events (finished, or kept in the state store): the bus does
  /// not deliver them again. Thread-safe; acknowledging twice is harmless.
  virtual void acknowledge(const std::vector<std::uint64_t>& sequences) = 0;
};

/// Called once with the outcome of a state_store::store: an empty `error` means stored.
using store_done = std::function<void(const std::string& error)>;

/// Values kept in the bus (a JetStream KV bucket, a compacted Kafka topic), shared by the
/// replicas: the events each sensor holds unfinished (partial joins, running `atLeastOnce`
/// executions), so that another replica can continue where a dead one stopped.
class state_store {
public:
  virtual ~state_store() = default;

  /// The value of `key`; nullopt when there is none. Blocks for a round trip; throws
  /// std::runtime_error when the bus does not answer.
  virtual std::optional<std::string> load(const std::string& key) = 0;

  /// Replaces the value of `key` (an empty value deletes it), asynchronously: stores of one key
  /// apply in the order they were made; `done` runs once on the driver's thread.
  virtual void store(const std::string& key, std::string value, store_done done) = 0;

  /// The largest value `store` accepts, in bytes.
  virtual std::size_t max_value_bytes() const = 0;
};

/// The shard of `name` among `shards` (XXH3 of the name): every replica and every bus driver
/// agrees on it.
std::uint32_t shard_of(const std::string& name, std::uint32_t shards) noexcept;

/// Ownership shared with the other replicas through the bus, so that each sensor and each
/// active-passive event source runs on one replica at a time. Names are grouped into shards;
/// a replica owns a name while it holds the lease of the name's shard, and the live replicas
/// divide the shards between them.
class ownership {
public:
  virtual ~ownership() = default;

  /// Calls `changed(true)` when this replica becomes the owner of `name` and `changed(false)`
  /// when it stops being it (lease lost, or handed to a replica that joined). From any thread,
  /// never two calls at once for one watch. Dropping the returned handle ends the watch.
  virtual std::shared_ptr<void> watch(const std::string& name,
                                      std::function<void(bool owned)> changed) = 0;

  /// This replica's id (unique among the live replicas).
  virtual const std::string& replica() const = 0;
};

/// A bus outside the process (NATS JetStream, Kafka) shared by the replicas of a cluster.
/// Sources publish to it (bus_publisher: `done(accepted)` only once the bus has stored the
/// event); each sensor consumes it through a durable subscription of its own.
class remote_bus : public bus_publisher {
public:
  /// `jetstream` or `kafka`.
  virtual std::string kind() const = 0;

  /// Opens (creating when needed) the durable subscription of `sensor` to the events of
  /// `sources` — (eventSourceName, eventName) pairs — and starts delivering to `handler`.
  /// The subscription resumes after the last acknowledged event; a new one starts with the
  /// events published from now on. Throws std::runtime_error when the bus refuses.
  virtual std::unique_ptr<remote_subscription> subscribe(
    const std::string& sensor, const std::vector<std::pair<std::string, std::string>>& sources,
    delivery_handler handler) = 0;

  /// Creates the durable position of `sensor` on `sources` when it has none, so that events
  /// published from now on wait for the sensor even before a replica runs it. Called for every
  /// sensor when the engine plans it. Throws std::runtime_error when the bus refuses.
  virtual void prepare(const std::string& sensor,
                       const std::vector<std::pair<std::string, std::string>>& sources) {}

  /// Deletes what the bus keeps for `sensor` (its subscriptions; its state is deleted through
  /// the state store): the sensor was removed from the manifests.
  virtual void forget(const std::string& sensor) = 0;

  /// Where sensors keep their unfinished events.
  virtual state_store& state() = 0;

  /// Who runs what.
  virtual ownership& owners() = 0;

  /// Waits (up to `grace`) for publishes in flight, then refuses new ones.
  virtual void close(std::chrono::milliseconds grace) = 0;
};

} // namespace ganglion::core
