#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"

namespace ganglion::kafka {

/// Settings of `kafka` sources that no manifest field carries.
struct source_options {
  /// Events offered to the bus and not answered yet, per source, before it stops offering.
  std::size_t max_in_flight = 1024;
  /// Messages read ahead of the bus, per source, before it stops taking more from librdkafka
  /// (which keeps prefetching up to its queued.max.messages.kbytes).
  std::size_t max_backlog = 2048;
  /// How long the backlog may stay full before the partitions are paused, so that the consumer
  /// keeps serving rebalances (resuming costs librdkafka about half a second).
  std::chrono::milliseconds pause_after{10000};
  /// How often accepted offsets are committed while running (also on rebalance and stop).
  std::chrono::milliseconds commit_interval{200};
  /// First and longest wait before an event the bus refused is offered again.
  std::chrono::milliseconds retry_initial{50};
  std::chrono::milliseconds retry_max{5000};
  /// How long a stopping source waits for the bus to answer events in flight before it commits.
  std::chrono::milliseconds stop_grace{2000};
};

/// The `kafka` event source (`spec.kafka.<event>`): a consumer group or one partition of a
/// topic; every message becomes one event; offsets are committed once the bus accepted the
/// message and every earlier one of its partition (at least once). See README.md.
core::source_factory make_kafka_source_factory(source_options options = {});

/// The kafka source's check step (also run when a source starts): the event exists with a url,
/// a topic, a limit that is not negative and a consumer group name or a partition number; no
/// filter.expression. Reads no secret, connects to nothing.
std::vector<std::string> check_kafka_source(const core::source_context& ctx);

} // namespace ganglion::kafka
