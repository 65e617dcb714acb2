#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace ganglion::loadgen {

/// log2 of the histogram's buckets per power of two.
inline constexpr std::size_t histogram_sub_bits = 7;

/// The bucket of `ns` clamped to [0, highest]: exact below 256, then 2^histogram_sub_bits
/// buckets per power of two.
constexpr std::size_t histogram_bucket(std::int64_t ns, std::int64_t highest) noexcept {
  constexpr std::size_t sub_bits = histogram_sub_bits;
  constexpr std::uint64_t sub_count = std::uint64_t{1} << sub_bits;
  auto v = static_cast<std::uint64_t>(ns < 0 ? 0 : ns > highest ? highest : ns);
  if (v < 2 * sub_count)
    return v;
  auto shift = static_cast<std::size_t>(std::bit_width(v)) - 1 - sub_bits;
  return shift * sub_count + (v >> shift);
}

/// A log-linear latency histogram in nanoseconds (HDR-style): exact below 256 ns, then 128
/// buckets per power of two, so a reported value is within 0.4% of a recorded one. Values are
/// clamped to [0, 60 s]; memory is fixed (~31 KB). One thread records (lock-free, relaxed
/// atomics, no allocation) while others may read or merge it at any time.
class histogram {
public:
  /// Largest value kept apart: larger values count as this.
  static constexpr std::int64_t highest_ns = 60'000'000'000;
  /// Buckets per power of two.
  static constexpr std::uint64_t sub_count = std::uint64_t{1} << histogram_sub_bits;

  /// An empty histogram.
  histogram() = default;
  /// A snapshot of `other`.
  histogram(const histogram& other);
  /// Replaces the content with a snapshot of `other`.
  histogram& operator=(const histogram& other);

  /// Counts one value; only the owning thread may call it.
  void record(std::int64_t ns) noexcept;
  /// Adds every value of `other` (which may be recording concurrently).
  void merge(const histogram& other) noexcept;
  /// Removes the values of `earlier`, an older snapshot of the same recorder: what remains is
  /// what was recorded in between (min and max stay those of this histogram).
  void subtract(const histogram& earlier) noexcept;
  /// Empties the histogram.
  void reset() noexcept;

  /// Number of values recorded.
  std::uint64_t count() const noexcept;
  /// The value at percentile `p` (0..100) by nearest rank: the midpoint of the bucket holding
  /// that rank, clamped to [min, max]; the exact min and max for the first and last rank; 0
  /// when empty.
  std::int64_t percentile(double p) const noexcept;
  /// Smallest value recorded (0 when empty).
  std::int64_t min() const noexcept;
  /// Largest value recorded (0 when empty).
  std::int64_t max() const noexcept;
  /// Arithmetic mean of the recorded values (0 when empty).
  double mean() const noexcept;

  /// Bucket index of a value, after clamping to [0, highest_ns].
  static constexpr std::size_t index_of(std::int64_t ns) noexcept {
    return histogram_bucket(ns, highest_ns);
  }
  /// Smallest value of bucket `index`.
  static std::int64_t lowest_of(std::size_t index) noexcept;
  /// Number of values bucket `index` spans.
  static std::int64_t width_of(std::size_t index) noexcept;

private:
  static constexpr std::size_t bucket_count = histogram_bucket(highest_ns, highest_ns) + 1;
  using counter = std::atomic<std::uint64_t>;

  std::array<counter, bucket_count> buckets_{};
  counter count_{0};
  std::atomic<std::int64_t> sum_{0};
  std::atomic<std::int64_t> min_{INT64_MAX};
  std::atomic<std::int64_t> max_{0};
};

} // namespace ganglion::loadgen
