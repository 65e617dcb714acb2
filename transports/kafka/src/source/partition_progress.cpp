#include "source/partition_progress.hpp"

#include <algorithm>

namespace ganglion::kafka::detail {

void partition_progress::read(std::int64_t offset) {
  if (!pending_.empty() && offset <= pending_.back().first)
    pending_.clear();
  pending_.emplace_back(offset, false);
}

void partition_progress::settle(std::int64_t offset) {
  auto it = std::lower_bound(pending_.begin(), pending_.end(), offset,
                             [](const auto& entry, std::int64_t o) { return entry.first < o; });
  if (it == pending_.end() || it->first != offset)
    return;
  it->second = true;
  while (!pending_.empty() && pending_.front().second) {
    commit_point_ = pending_.front().first + 1;
    pending_.pop_front();
  }
}

} // namespace ganglion::kafka::detail
