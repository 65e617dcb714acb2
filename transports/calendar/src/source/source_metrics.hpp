#pragma once

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::calendar::detail {

/// Counters of one calendar source: a tick is `received` when it fires and `accepted` once the
/// bus holds it. Rejection reasons: the bus's answers to one attempt (`saturated`, `stopped`,
/// `store_failed`) and `given_up` for a tick skipped after its last attempt. The core counts
/// `filtered` and `filter_error` (`filter.expression`).
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event, {"saturated", "stopped", "store_failed", "given_up"}) {}
};

} // namespace ganglion::calendar::detail
