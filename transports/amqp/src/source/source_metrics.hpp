#pragma once

// Private: the counters of one amqp source (the same families as the other sources), plus its
// reconnections.

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::amqp {

/// Counters of one amqp source event: received are the deliveries; rejection reasons
/// `invalid_json` (rejected to the queue's dead-letter exchange, if any), `saturated`,
/// `store_failed`, `stopped` (the bus refused it: the message is requeued, or lost with
/// autoAck). `ganglion_source_reconnects_total` counts connections made again after a loss.
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event,
                      {"invalid_json", "saturated", "store_failed", "stopped"}) {}
};

} // namespace ganglion::amqp
