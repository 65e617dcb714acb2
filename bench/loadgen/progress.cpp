#include "progress.hpp"

#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

namespace ganglion::loadgen {

progress_line::progress_line(bool enabled)
  : enabled_(enabled), tty_(::isatty(STDERR_FILENO) == 1) {}

void progress_line::print(double elapsed_s, double rate, std::uint64_t ok, std::uint64_t errors,
                          const histogram& interval) {
  if (!enabled_)
    return;
  auto p99 = interval.count() > 0 ? format_ms(interval.percentile(99)) + " ms" : "-";
  auto line = fmt::format("[{:5.1f}s] {:.0f} req/s  ok {}  err {}  p99 {}", elapsed_s, rate, ok,
                          errors, p99);
  if (tty_) {
    fmt::print(stderr, "\r{:<70}", line);
    pending_ = true;
  } else {
    fmt::print(stderr, "{}\n", line);
  }
  std::fflush(stderr);
}

void progress_line::finish() {
  if (pending_)
    fmt::print(stderr, "\n");
  pending_ = false;
}

std::string format_ms(std::int64_t ns) {
  auto ms = static_cast<double>(ns) / 1e6;
  if (ms < 1)
    return fmt::format("{:.3f}", ms);
  if (ms < 10)
    return fmt::format("{:.2f}", ms);
  if (ms < 100)
    return fmt::format("{:.1f}", ms);
  return fmt::format("{:.0f}", ms);
}

} // namespace ganglion::loadgen
