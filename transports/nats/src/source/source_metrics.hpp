#pragma once

// Private: the counters of one nats source (the same families as the webhook source).

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::nats {

/// Counters of one nats source event: received are the messages the subscription delivered;
/// rejection reasons `invalid_json`, `saturated`, `store_failed`, `stopped` (the bus refused
/// it) and `slow_consumer` (dropped by the client library before delivery). The core counts
/// `filtered` and `filter_error` (`filter.expression`).
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event,
                      {"invalid_json", "saturated", "store_failed", "stopped", "slow_consumer"}) {}
};

} // namespace ganglion::nats
