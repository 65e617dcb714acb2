#pragma once

// Private: the counters of one redis or redisStream source.

#include <string>

#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/metrics.hpp"

namespace ganglion::redis {

/// Counters of one source event: received are the messages (entries) read; rejection reasons
/// `invalid_json` (jsonBody set, the message is not JSON), `saturated`, `store_failed`,
/// `stopped` (the bus refused it: a Pub/Sub message is then lost, a stream entry read again).
/// The core counts `filtered` and `filter_error`. `reconnects` counts the connections made
/// again after one was lost (`ganglion_source_reconnects_total`).
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event,
                      {"invalid_json", "saturated", "store_failed", "stopped"}) {}
};

} // namespace ganglion::redis
