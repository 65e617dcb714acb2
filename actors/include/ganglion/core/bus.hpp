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
};

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
