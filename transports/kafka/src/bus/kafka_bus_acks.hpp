#pragma once

// Not installed: which offsets of a partition a sensor has acknowledged, and how that is kept
// in the committed offset: the offset is the first unacknowledged one, and its metadata lists
// the acknowledged offsets above it, so that a new subscription skips exactly those.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ganglion::kafka::detail {

/// The metadata forget() commits: the next subscription of the group starts at the end.
inline constexpr std::string_view forgotten_marker = "ganglion:forgotten";

/// The largest metadata a commit carries (brokers accept 4096 bytes by default).
inline constexpr std::size_t max_metadata_bytes = 3000;

/// Sorted, disjoint offset ranges [first, last].
class offset_ranges {
public:
  /// Adds `offset`; offsets are added in increasing order.
  void add(std::int64_t offset);
  /// True when `offset` is in a range.
  bool contains(std::int64_t offset) const noexcept;
  bool empty() const noexcept { return ranges_.empty(); }

  /// `g1;` then `a-b` or `a` per range, comma-separated, as distances from `base`; ranges that
  /// do not fit in `max_bytes` are left out (their offsets are delivered again).
  std::string encode(std::int64_t base, std::size_t max_bytes = max_metadata_bytes) const;
  /// The ranges of `metadata` (written by encode with `base`); empty when it is not such.
  static offset_ranges decode(std::string_view metadata, std::int64_t base);

private:
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges_;
};

/// The offsets one subscription received from one partition, in order, until acknowledged.
/// Not thread-safe.
class partition_acks {
public:
  /// `start`: the first offset to come, or -1 when unknown (the partition's beginning).
  explicit partition_acks(std::int64_t start = -1) : next_(start) {}

  /// The record at `offset` arrived; `acknowledged` when it needs no acknowledgement (not for
  /// this sensor, undecodable, acknowledged before a restart). False when `offset` came before
  /// (a partition refetched after a pause): it is not to be delivered again.
  bool delivered(std::int64_t offset, bool acknowledged);
  /// The sensor is done with `offset`; unknown or repeated offsets are ignored.
  void acknowledge(std::int64_t offset);

  /// The offset to commit: the first unacknowledged one (-1: nothing known yet).
  std::int64_t position() const noexcept;
  /// The commit metadata: the acknowledged offsets above position().
  std::string metadata() const;
  /// Records delivered and not acknowledged yet.
  std::size_t unacknowledged() const noexcept { return unacknowledged_; }

  /// True when position() or metadata() changed since mark_committed().
  bool changed() const noexcept { return changed_; }
  void mark_committed() noexcept { changed_ = false; }

private:
  std::deque<std::pair<std::int64_t, bool>> pending_; // front is unacknowledged
  std::int64_t next_;                                  // after the last delivered record
  std::size_t unacknowledged_ = 0;
  bool changed_ = false;
};

} // namespace ganglion::kafka::detail
