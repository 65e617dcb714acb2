#pragma once

// Not installed: keeps per-message problems (bad JSON, filter errors) from flooding the log.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include <fmt/format.h>

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

/// ` (<held_back> more <what> not logged)`, or nothing when no line was held back.
inline std::string held_back_note(std::uint64_t held_back, std::string_view what = "") {
  if (held_back == 0)
    return {};
  return fmt::format(" ({} more {}{}not logged)", held_back, what, what.empty() ? "" : " ");
}

} // namespace ganglion::core
