#include "histogram.hpp"

#include <algorithm>
#include <cmath>

namespace ganglion::loadgen {

namespace {

constexpr auto relaxed = std::memory_order_relaxed;

/// Adds `n` to a counter that only the calling thread writes (no locked instruction).
template <class T>
void add(std::atomic<T>& a, T n) noexcept {
  a.store(a.load(relaxed) + n, relaxed);
}

} // namespace

histogram::histogram(const histogram& other) {
  merge(other);
}

histogram& histogram::operator=(const histogram& other) {
  if (this != &other) {
    reset();
    merge(other);
  }
  return *this;
}

void histogram::record(std::int64_t ns) noexcept {
  add(buckets_[index_of(ns)], std::uint64_t{1});
  add(count_, std::uint64_t{1});
  add(sum_, ns);
  if (ns < min_.load(relaxed))
    min_.store(ns, relaxed);
  if (ns > max_.load(relaxed))
    max_.store(ns, relaxed);
}

void histogram::merge(const histogram& other) noexcept {
  for (std::size_t i = 0; i < bucket_count; ++i)
    if (auto n = other.buckets_[i].load(relaxed))
      add(buckets_[i], n);
  add(count_, other.count_.load(relaxed));
  add(sum_, other.sum_.load(relaxed));
  min_.store(std::min(min_.load(relaxed), other.min_.load(relaxed)), relaxed);
  max_.store(std::max(max_.load(relaxed), other.max_.load(relaxed)), relaxed);
}

void histogram::subtract(const histogram& earlier) noexcept {
  for (std::size_t i = 0; i < bucket_count; ++i) {
    auto mine = buckets_[i].load(relaxed);
    buckets_[i].store(mine - std::min(mine, earlier.buckets_[i].load(relaxed)), relaxed);
  }
  auto count = count_.load(relaxed);
  count_.store(count - std::min(count, earlier.count_.load(relaxed)), relaxed);
  sum_.store(sum_.load(relaxed) - earlier.sum_.load(relaxed), relaxed);
}

void histogram::reset() noexcept {
  for (auto& b : buckets_)
    b.store(0, relaxed);
  count_.store(0, relaxed);
  sum_.store(0, relaxed);
  min_.store(INT64_MAX, relaxed);
  max_.store(0, relaxed);
}

std::uint64_t histogram::count() const noexcept {
  return count_.load(relaxed);
}

std::int64_t histogram::lowest_of(std::size_t index) noexcept {
  if (index < 2 * sub_count)
    return static_cast<std::int64_t>(index);
  auto shift = index / sub_count - 1;
  return static_cast<std::int64_t>((index - shift * sub_count) << shift);
}

std::int64_t histogram::width_of(std::size_t index) noexcept {
  return index < 2 * sub_count ? 1 : std::int64_t{1} << (index / sub_count - 1);
}

std::int64_t histogram::percentile(double p) const noexcept {
  // The buckets, not count_, give the total: a concurrent recorder may be between the two.
  std::uint64_t total = 0;
  for (const auto& b : buckets_)
    total += b.load(relaxed);
  if (total == 0)
    return 0;
  auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 *
                                                   static_cast<double>(total)));
  rank = std::clamp<std::uint64_t>(rank, 1, total);
  if (rank == total)
    return max();
  if (rank == 1)
    return min();
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    seen += buckets_[i].load(relaxed);
    if (seen >= rank) {
      auto mid = lowest_of(i) + (width_of(i) - 1) / 2;
      return std::clamp(mid, min(), std::max(min(), max()));
    }
  }
  return max();
}

std::int64_t histogram::min() const noexcept {
  auto m = min_.load(relaxed);
  return m == INT64_MAX ? 0 : m;
}

std::int64_t histogram::max() const noexcept {
  return max_.load(relaxed);
}

double histogram::mean() const noexcept {
  auto n = count_.load(relaxed);
  return n == 0 ? 0.0 : static_cast<double>(sum_.load(relaxed)) / static_cast<double>(n);
}

} // namespace ganglion::loadgen
