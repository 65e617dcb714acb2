#pragma once

#include <algorithm>
#include <chrono>

namespace ganglion::kafka::detail {

/// Paces events to `rate` per second on average, with bursts of at most `burst` events.
/// A rate of 0 or less lets everything through.
class token_bucket {
public:
  using clock = std::chrono::steady_clock;

  token_bucket(double rate, double burst)
    : rate_(rate), burst_(std::max(1.0, burst)), tokens_(burst_), last_(clock::now()) {}

  /// Takes one token at `now` and returns zero, or returns how long until one is available.
  std::chrono::nanoseconds try_take(clock::time_point now) {
    if (rate_ <= 0)
      return std::chrono::nanoseconds{0};
    double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    last_ = now;
    if (tokens_ >= 1.0) {
      tokens_ -= 1.0;
      return std::chrono::nanoseconds{0};
    }
    return std::chrono::nanoseconds{static_cast<long long>((1.0 - tokens_) / rate_ * 1e9) + 1};
  }

private:
  double rate_;
  double burst_;
  double tokens_;
  clock::time_point last_;
};

} // namespace ganglion::kafka::detail
