#pragma once

#include <chrono>
#include <cstdint>

namespace ganglion::loadgen {

/// Nanoseconds on the steady clock: every timestamp the load generator compares.
inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
           std::chrono::steady_clock::now().time_since_epoch())
    .count();
}

/// A steady_clock time point for `ns` (a value from now_ns), for timers.
inline std::chrono::steady_clock::time_point time_point_of(std::int64_t ns) noexcept {
  return std::chrono::steady_clock::time_point{std::chrono::nanoseconds{ns}};
}

} // namespace ganglion::loadgen
