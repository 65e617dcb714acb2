#pragma once

#include <cstdint>
#include <deque>
#include <utility>

namespace ganglion::kafka::detail {

/// The commit point of one partition: it advances only over a contiguous prefix of settled
/// messages (accepted by the bus, or dropped for good), so an offset is committed only once
/// every earlier message of the partition is safe.
class partition_progress {
public:
  /// A message at `offset` was read. Offsets increase; an offset not above the last one read
  /// (the consumer seeked back) forgets what was pending.
  void read(std::int64_t offset);

  /// The message at `offset` is settled. Unknown offsets are ignored.
  void settle(std::int64_t offset);

  /// The offset to commit (one past the last message of the settled prefix), or -1 when nothing
  /// was settled yet.
  std::int64_t commit_point() const noexcept { return commit_point_; }

  /// True when the commit point moved past what was last marked committed.
  bool needs_commit() const noexcept { return commit_point_ > committed_; }

  /// Records that `offset` was committed.
  void mark_committed(std::int64_t offset) noexcept {
    if (offset > committed_)
      committed_ = offset;
  }

private:
  /// Read offsets not yet part of the settled prefix, with whether each is settled.
  std::deque<std::pair<std::int64_t, bool>> pending_;
  std::int64_t commit_point_ = -1;
  std::int64_t committed_ = -1;
};

} // namespace ganglion::kafka::detail
