#pragma once

#include <optional>
#include <string>

#include "histogram.hpp"
#include "sink.hpp"
#include "thread_stats.hpp"

namespace ganglion::loadgen {

/// End-to-end results of a run with --sink.
struct e2e_results {
  std::string sink_url;
  sink_counts counts;
  std::uint64_t missing = 0; ///< answered 2xx but never arrived by the end of the drain
  double drain_s = 0;        ///< how long the drain waited
};

/// Everything a run measured, for the report.
struct run_results {
  std::string url;
  std::size_t connections = 0;
  std::size_t threads = 0;
  double duration_s = 0; ///< the measured window (warmup excluded)
  double warmup_s = 0;
  double target_rate = 0; ///< 0: closed loop
  counters requests;
  histogram latency;
  std::uint64_t connects = 0; ///< connections opened, reconnects included
  std::optional<e2e_results> e2e;

  /// True when not one request got an HTTP response and some failed.
  bool all_failed() const noexcept { return requests.answered() == 0 && requests.errors > 0; }
};

} // namespace ganglion::loadgen
