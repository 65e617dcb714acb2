#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "ganglion/core/internal/retry_schedule.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// A strict rate limit: never more than `limit` admissions within any window of `unit`
/// (a sliding log of the last `limit` admissions). Argo's leaky bucket lets a burst of 10
/// extra through after idle time; this does not.
class rate_gate {
public:
  using clock = std::chrono::steady_clock;

  /// `limit` 0 admits everything.
  rate_gate(std::uint32_t limit, clock::duration unit);

  /// Admits now (and records it), or returns how long to wait before trying again.
  std::optional<clock::duration> try_admit(clock::time_point now);

  /// The limiter for a trigger's `rateLimit` (none when absent or requestsPerUnit is 0).
  static rate_gate from(const std::optional<dsl::rate_limit>& spec);

private:
  std::uint32_t limit_;
  clock::duration unit_;
  std::deque<clock::time_point> admitted_;
};

} // namespace ganglion::core
