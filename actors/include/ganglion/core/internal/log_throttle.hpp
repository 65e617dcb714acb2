#pragma once

// Not installed: keeps per-message problems (bad JSON, filter errors) from flooding the log.

#include <chrono>
#include <cstdint>
#include <mutex>

namespace ganglion::core {

/// Lets one log line through per interval and counts the ones it held back.
class log_throttle {
public:
  /// At most one line per `interval`.
  explicit log_throttle(std::chrono::steady_clock::duration interval = std::chrono::seconds(30))
    : interval_(interval) {}

  /// True when a line may be logged now; `held_back` is then the number of occurrences not
  /// logged since the previous line.
  bool allow(std::uint64_t& held_back) {
    std::lock_guard guard{mutex_};
    auto now = std::chrono::steady_clock::now();
    if (now < next_) {
      ++held_back_;
      return false;
    }
    next_ = now + interval_;
    held_back = held_back_;
    held_back_ = 0;
    return true;
  }

private:
  std::mutex mutex_;
  std::chrono::steady_clock::duration interval_;
  std::chrono::steady_clock::time_point next_{};
  std::uint64_t held_back_ = 0;
};

} // namespace ganglion::core
