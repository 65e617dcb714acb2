#pragma once

// Private: the counters of one mqtt source (the same families as the other sources), and its
// reconnections.

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::mqtt {

/// Counters of one mqtt source event: received are the messages the broker delivered;
/// rejection reasons `invalid_json`, `saturated`, `store_failed` and `stopped` (the bus
/// refused it: QoS 0 cannot redeliver, so it is dropped). The core counts `filtered` and
/// `filter_error`. `ganglion_source_reconnects_total` counts the connections made again after
/// one was lost.
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event,
                      {"invalid_json", "saturated", "store_failed", "stopped"}) {}
};

} // namespace ganglion::mqtt
