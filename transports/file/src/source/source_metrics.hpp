#pragma once

// Private: the counters of one file or sftp source (the same families as every source).

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::file {

/// Counters of one file or sftp source event: received are the changes it takes (after
/// path and eventType); rejection reasons are the bus's refusals (`saturated`,
/// `store_failed`, `stopped`: the change is offered again until the bus takes it, unless the
/// source stops). The core counts `filtered` and `filter_error` (`filter.expression`).
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event, {"saturated", "store_failed", "stopped"}) {}
};

} // namespace ganglion::file
