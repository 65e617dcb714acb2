#pragma once

#include <functional>
#include <string>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// What became of a publish.
enum class publish_status {
  accepted,  ///< the bus holds the event (durably, when the bus is durable)
  saturated, ///< the bus is full: the producer should retry later (HTTP 503)
  stopped,   ///< the bus is shutting down
  failed,    ///< the bus could not store the event (e.g. its disk is full); retry later
  /// The event source's `filter.expression` dropped the event before the bus. Argo counts this
  /// a success: the source acknowledges its producer, and does not count the event accepted.
  filtered,
};

/// The status as a `reason` label of `ganglion_events_rejected_total`: `accepted`,
/// `saturated`, `stopped`, `store_failed` or `filtered`.
constexpr const char* to_string(publish_status status) {
  switch (status) {
    case publish_status::accepted: return "accepted";
    case publish_status::saturated: return "saturated";
    case publish_status::stopped: return "stopped";
    case publish_status::failed: return "store_failed";
    case publish_status::filtered: return "filtered";
  }
  return "unknown";
}

/// Receives the outcome of one publish, exactly once; `error` explains `failed`.
using publish_done = std::function<void(publish_status status, const std::string& error)>;

/// The side of the bus that sources see. Thread-safe: called from transport threads.
class bus_publisher {
public:
  virtual ~bus_publisher() = default;

  /// Offers one event to the bus; never blocks. `done` runs exactly once with the outcome:
  /// at once, or later on another thread when the bus first writes the event durably. A source
  /// acknowledges its producer only after `accepted`.
  virtual void publish(event&& e, publish_done done) = 0;
};

} // namespace ganglion::core
