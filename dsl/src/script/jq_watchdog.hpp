#pragma once

// Halts jq programs that outlive their deadline. libjq has no interrupt, but jq_next checks
// the state's `halted` flag before every instruction; jq_halt sets it.

#include <chrono>
#include <cstdint>

extern "C" {
#include <jq.h>
}

namespace ganglion::dsl::jq {

/// One thread for the process, started on first use, that halts watched jq states whose
/// deadline has passed.
class watchdog {
public:
  using clock = std::chrono::steady_clock;

  /// The process's watchdog.
  static watchdog& instance();

  /// Watches `state` until release; returns the watch's ticket.
  std::uint64_t watch(jq_state* state, clock::time_point deadline);

  /// Stops watching; true when the deadline passed and the state was halted. After it returns
  /// the watchdog no longer touches the state.
  bool release(std::uint64_t ticket);

private:
  watchdog();
  struct impl;
  impl* impl_;
};

} // namespace ganglion::dsl::jq
