#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// Argo's retryStrategy: how many attempts an execution gets and how long to wait between them.
class retry_schedule {
public:
  /// No retryStrategy: one attempt. `steps` <= 0: 5 attempts. Defaults: duration 1 s,
  /// factor 1, jitter 1 (Argo's pkg/shared/util/retry.go).
  explicit retry_schedule(const std::optional<dsl::backoff>& strategy);

  /// Total attempts, the first included.
  std::uint32_t attempts() const noexcept { return attempts_; }

  /// The wait after failed attempt `index` (0-based): d·f^i plus up to jitter·d·f^i, with
  /// `random01` in [0, 1), capped at `maxDuration` (default 24 h).
  std::chrono::nanoseconds delay(std::uint32_t index, double random01) const;

private:
  std::uint32_t attempts_ = 1;
  double duration_ns_ = 1e9;
  double factor_ = 1;
  double jitter_ = 1;
  double cap_ns_ = 24.0 * 3600 * 1e9;
};

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
