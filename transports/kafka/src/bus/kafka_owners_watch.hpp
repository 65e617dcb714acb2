#pragma once

// Not installed: the watches of the Kafka bus's ownership and the shards this replica owns.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace ganglion::kafka::detail {

/// Which shards this replica owns, and who wants to know. Each watch reports its name's state
/// whenever sync runs and the state differs from what it last reported; reports of one watch
/// never overlap, and none comes after its handle is dropped.
class watch_registry : public std::enable_shared_from_this<watch_registry> {
public:
  /// Adds a watch of `name`; dropping the returned handle removes it. Reports nothing by itself
  /// (sync_fresh does, on the ownership thread).
  std::shared_ptr<void> add(const std::string& name, std::function<void(bool)> changed);

  /// The shard count, once known (names map to no shard before).
  void set_shards(std::uint32_t shards);
  /// Marks `shards` as owned or not.
  void set_owned(const std::vector<std::int32_t>& shards, bool owned);
  /// Marks every shard as not owned.
  void clear_owned();
  /// The shards owned now.
  std::vector<std::uint32_t> owned() const;

  /// Reports the current state to every watch whose state changed.
  void sync_all();
  /// Reports to the watches added since the last call; true when there were any.
  bool sync_fresh();

private:
  struct entry;
  bool owns(const std::string& name) const;
  void sync(entry& e);
  void remove(const std::shared_ptr<entry>& e);

  mutable std::mutex mutex_; // guards everything below
  std::uint32_t shards_ = 0;
  std::vector<char> owned_;
  std::unordered_set<std::shared_ptr<entry>> entries_;
  std::vector<std::weak_ptr<entry>> fresh_;
  std::atomic<bool> has_fresh_{false};
};

} // namespace ganglion::kafka::detail
