#include "sensor/dedup_window.hpp"

#include <algorithm>

#include <xxhash.h>

namespace ganglion::core {

dedup_window::dedup_window(std::chrono::milliseconds window, std::size_t capacity)
  : window_(window), generation_capacity_(std::max<std::size_t>(1, capacity / 2)) {}

void dedup_window::rotate(clock::time_point now) {
  if (now - current_start_ >= 2 * window_)
    current_.clear();
  std::swap(previous_, current_);
  current_.clear();
  current_start_ = now;
}

dedup_window::fingerprint dedup_window::fingerprint_of(std::string_view id) noexcept {
  auto hash = XXH3_128bits(id.data(), id.size());
  return {hash.low64, hash.high64};
}

void dedup_window::remember(fingerprint f) {
  if (window_.count() <= 0)
    return;
  auto now = clock::now();
  if (current_start_ == clock::time_point{})
    current_start_ = now;
  if (current_.size() >= generation_capacity_)
    rotate(now);
  current_.insert(f);
}

bool dedup_window::seen_before(std::string_view id, clock::time_point now) {
  if (window_.count() <= 0 || id.empty())
    return false;
  if (now - current_start_ >= window_ || current_.size() >= generation_capacity_)
    rotate(now);
  auto f = fingerprint_of(id);
  if (previous_.contains(f))
    return true;
  return !current_.insert(f).second;
}

} // namespace ganglion::core
