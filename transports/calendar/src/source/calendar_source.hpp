#pragma once

#include <chrono>
#include <memory>

#include "clock/ticker.hpp"
#include "ganglion/core/source.hpp"

namespace ganglion::calendar::detail {

/// How a tick the bus refuses is tried again: `attempts` in all, the waits doubling from
/// `first_delay` up to `max_delay` (by default about 21 s in all); then the tick is skipped.
struct retry_policy {
  int attempts = 10;
  std::chrono::milliseconds first_delay{100};
  std::chrono::milliseconds max_delay{5000};

  /// The wait after attempt `attempt` (0: the first) failed.
  std::chrono::milliseconds delay_after(int attempt) const {
    auto delay = first_delay;
    for (int i = 0; i < attempt && delay < max_delay; ++i)
      delay *= 2;
    return std::min(delay, max_delay);
  }
};

/// Starts the calendar source of `ctx` on `clock`: it fires each tick once the bus accepts it,
/// in order, retrying a refused tick a bounded number of times. With `persistence` it keeps
/// the last tick in `ctx.store` and, with `catchup.enabled`, fires the ticks missed since then
/// on start. Throws core::source_error.
std::unique_ptr<core::source> start_calendar(const core::source_context& ctx,
                                             std::shared_ptr<ticker> clock,
                                             retry_policy retry = {});

} // namespace ganglion::calendar::detail
