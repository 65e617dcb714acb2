#pragma once

#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// What became of a publish.
enum class publish_status {
  accepted,  ///< the bus holds the event (durably, when the bus is durable)
  saturated, ///< the bus is full: the producer should retry later (HTTP 503)
  stopped,   ///< the bus is shutting down
};

/// The side of the bus that sources see. Thread-safe: called from transport threads.
class bus_publisher {
public:
  virtual ~bus_publisher() = default;

  /// Offers one event to the bus; never blocks.
  virtual publish_status publish(event&& e) = 0;
};

} // namespace ganglion::core
