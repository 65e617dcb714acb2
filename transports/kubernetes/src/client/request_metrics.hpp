#pragma once

#include <chrono>
#include <string>

namespace ganglion::core {
class metrics_registry;
} // namespace ganglion::core

namespace ganglion::kubernetes::detail {

/// The client's metrics: `ganglion_kubernetes_requests_total{verb,code}`,
/// `ganglion_kubernetes_request_duration_seconds{verb}` and
/// `ganglion_kubernetes_watch_restarts_total{reason}`. Does nothing without a registry.
class request_metrics {
public:
  explicit request_metrics(core::metrics_registry* registry) : registry_(registry) {}

  /// One response (`status` 0: none arrived) to a request of `verb` (the HTTP method, or
  /// `WATCH` for a watch stream) that took `took`.
  void record(const std::string& verb, long status, std::chrono::steady_clock::duration took);

  /// A watch started again: `closed` (the stream ended), `expired` (410 Gone, relisted) or
  /// `error`.
  void watch_restart(const std::string& reason);

private:
  core::metrics_registry* registry_;
};

} // namespace ganglion::kubernetes::detail
