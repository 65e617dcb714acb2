#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "driver.hpp"
#include "histogram.hpp"

namespace ganglion::loadgen {

/// Request counters of a whole run (or of one thread), as plain numbers.
struct counters {
  std::uint64_t ok = 0;
  std::uint64_t client_error = 0;
  std::uint64_t server_error = 0; ///< 5xx, 503 included
  std::uint64_t saturated = 0;    ///< 503
  std::uint64_t other = 0;
  std::uint64_t errors = 0; ///< broken connections and failed connects, timeouts included
  std::uint64_t timeouts = 0;
  std::uint64_t sent = 0;   ///< measured requests sent
  std::uint64_t backlog_max = 0;
  std::uint64_t unsent = 0; ///< open loop: scheduled but never sent before the end

  /// Requests that got an HTTP response.
  std::uint64_t answered() const noexcept { return ok + client_error + server_error + other; }
  /// Adds `o` (backlog_max: the larger).
  void add(const counters& o) noexcept;
};

/// What one io thread measures. Its thread writes with relaxed atomics and no locked
/// instruction; the progress line and the final report read it from another thread.
class thread_stats {
public:
  /// Counts a finished request: every one for the progress rate, measured ones for the report.
  void on_done(const ticket& t, outcome result, std::int64_t done_ns) noexcept;
  /// Counts a failed connection attempt (as an error once the warmup is over).
  void on_connect_error(bool measured) noexcept;
  /// Counts a measured request sent.
  void on_sent() noexcept { bump(sent_); }
  /// Open loop: the backlog now holds `n` requests.
  void on_backlog(std::uint64_t n) noexcept;
  /// Open loop: `n` scheduled requests were never sent (set once, at the end).
  void set_unsent(std::uint64_t n) noexcept { unsent_.store(n, std::memory_order_relaxed); }

  /// Finished requests, warmup included.
  std::uint64_t finished() const noexcept { return finished_.load(std::memory_order_relaxed); }
  /// The counters so far.
  counters snapshot() const noexcept;
  /// 2xx latencies of measured requests.
  const histogram& latency() const noexcept { return latency_; }

private:
  using counter = std::atomic<std::uint64_t>;
  static void bump(counter& c) noexcept {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  counter finished_{0}, ok_{0}, client_error_{0}, server_error_{0}, saturated_{0}, other_{0},
    errors_{0}, timeouts_{0}, sent_{0}, backlog_max_{0}, unsent_{0};
  histogram latency_;
};

} // namespace ganglion::loadgen
