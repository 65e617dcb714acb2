#pragma once

// Not installed: Argo's backoff (k8s wait.Backoff, as pkg/shared/util/retry.go converts it),
// shared by the trigger's retryStrategy and the kinds that poll with a backoff (policy.k8s).

#include <chrono>
#include <cstdint>
#include <optional>

#include "ganglion/dsl/model/common.hpp"

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

} // namespace ganglion::core
