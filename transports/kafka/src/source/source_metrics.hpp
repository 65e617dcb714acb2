#pragma once

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::kafka::detail {

/// Counters of one kafka source. Rejection reasons: a message dropped (`bad_body`) or an offer
/// the bus refused (`saturated`, `stopped`, `store_failed`). The core counts `filtered` and
/// `filter_error` (`filter.expression`).
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event,
                      {"bad_body", "saturated", "stopped", "store_failed"}) {}
};

} // namespace ganglion::kafka::detail
