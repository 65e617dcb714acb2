#pragma once

// Not installed: Argo's ApplyEventSourceFilter once, in core, for every source kind: the source
// publishes through a filter that drops what `filter.expression` rejects before the bus.

#include <memory>
#include <string>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/source.hpp"
#include "source/event_filter.hpp"

namespace ganglion::core {

/// The `filter` of the event `ctx` starts (by its type and name); null when it has none.
const dsl::event_source_filter* filter_of(const source_context& ctx);

/// A bus publisher that evaluates a `filter.expression` on each event's data and publishes only
/// what passes; what it drops is counted and answered with publish_status::filtered.
class filtered_publisher final : public bus_publisher {
public:
  /// Compiles `expression` (std::runtime_error naming it) for the event of `ctx`, publishing
  /// to `ctx.bus`.
  filtered_publisher(const std::string& expression, const source_context& ctx);

  /// Publishes `e` when it passes; otherwise counts, logs and calls `done(filtered)`.
  void publish(event&& e, publish_done done) override;

private:
  event_filter filter_;
  std::shared_ptr<bus_publisher> bus_;
  std::string name_;
  source_counters counters_;
  log_throttle error_log_;
};

} // namespace ganglion::core
