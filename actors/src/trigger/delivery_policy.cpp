#include "trigger/delivery_policy.hpp"

#include <cmath>

namespace ganglion::core {

retry_schedule::retry_schedule(const std::optional<dsl::backoff>& strategy) {
  if (!strategy)
    return;
  attempts_ = strategy->steps && *strategy->steps > 0 ? static_cast<std::uint32_t>(*strategy->steps)
                                                      : 5;
  if (strategy->duration_ns && *strategy->duration_ns > 0)
    duration_ns_ = static_cast<double>(*strategy->duration_ns);
  if (strategy->factor && *strategy->factor > 0)
    factor_ = *strategy->factor;
  if (strategy->jitter && *strategy->jitter >= 0)
    jitter_ = *strategy->jitter;
  if (strategy->max_duration_ns && *strategy->max_duration_ns > 0)
    cap_ns_ = std::min(cap_ns_, static_cast<double>(*strategy->max_duration_ns));
}

std::chrono::nanoseconds retry_schedule::delay(std::uint32_t index, double random01) const {
  double base = duration_ns_ * std::pow(factor_, static_cast<double>(index));
  double total = base + random01 * jitter_ * base;
  return std::chrono::nanoseconds{static_cast<std::int64_t>(std::min(total, cap_ns_))};
}

rate_gate::rate_gate(std::uint32_t limit, clock::duration unit) : limit_(limit), unit_(unit) {}

std::optional<rate_gate::clock::duration> rate_gate::try_admit(clock::time_point now) {
  if (limit_ == 0)
    return std::nullopt;
  while (!admitted_.empty() && now - admitted_.front() >= unit_)
    admitted_.pop_front();
  if (admitted_.size() < limit_) {
    admitted_.push_back(now);
    return std::nullopt;
  }
  return admitted_.front() + unit_ - now;
}

rate_gate rate_gate::from(const std::optional<dsl::rate_limit>& spec) {
  if (!spec || spec->requests_per_unit <= 0)
    return rate_gate{0, std::chrono::seconds{1}};
  clock::duration unit = std::chrono::seconds{1};
  if (spec->unit == "Minute")
    unit = std::chrono::minutes{1};
  else if (spec->unit == "Hour")
    unit = std::chrono::hours{1};
  return rate_gate{static_cast<std::uint32_t>(spec->requests_per_unit), unit};
}

} // namespace ganglion::core
