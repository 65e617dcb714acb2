#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace ganglion::core {

/// Counts units of work in flight (events not yet processed by sensors, firings not yet
/// finished by triggers) so that shutdown can wait for them.
class work_tracker {
public:
  /// Adds `n` units.
  void add(std::int64_t n = 1) noexcept { count_.fetch_add(n, std::memory_order_acq_rel); }
  /// Removes `n` units.
  void done(std::int64_t n = 1) noexcept { count_.fetch_sub(n, std::memory_order_acq_rel); }
  /// Units in flight.
  std::int64_t pending() const noexcept { return count_.load(std::memory_order_acquire); }

private:
  std::atomic<std::int64_t> count_{0};
};

} // namespace ganglion::core
