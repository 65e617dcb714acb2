#pragma once

#include <cstdint>
#include <string>

#include "histogram.hpp"

namespace ganglion::loadgen {

/// The once-per-second progress line on stderr: `\r`-rewritten on a terminal, one line each
/// otherwise.
class progress_line {
public:
  /// `enabled` false prints nothing.
  explicit progress_line(bool enabled);

  /// Prints the state after `elapsed_s`: `rate` finished requests per second over the last
  /// interval, `ok` and `errors` so far, and the p99 of `interval` (the last interval's 2xx
  /// latencies).
  void print(double elapsed_s, double rate, std::uint64_t ok, std::uint64_t errors,
             const histogram& interval);
  /// Ends a `\r` line so that later output starts on its own line.
  void finish();

private:
  bool enabled_;
  bool tty_;
  bool pending_ = false;
};

/// A latency in nanoseconds as milliseconds with three significant digits ("0.612", "1.40",
/// "12.3", "140").
std::string format_ms(std::int64_t ns);

} // namespace ganglion::loadgen
