#include "bus/kafka_owners_watch.hpp"

#include <spdlog/spdlog.h>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::kafka::detail {

struct watch_registry::entry {
  std::string name;
  std::function<void(bool)> changed;
  std::recursive_mutex mutex; // held while reporting; the handle's destructor takes it too
  bool alive = true;
  bool reported = false;
};

std::shared_ptr<void> watch_registry::add(const std::string& name,
                                          std::function<void(bool)> changed) {
  auto e = std::make_shared<entry>();
  e->name = name;
  e->changed = std::move(changed);
  {
    std::lock_guard guard{mutex_};
    entries_.insert(e);
    fresh_.push_back(e);
    has_fresh_ = true;
  }
  std::weak_ptr<watch_registry> registry = weak_from_this();
  // The handle: dropping it waits for a report in progress (unless it is dropped from inside
  // that report), then removes the watch.
  return std::shared_ptr<void>(e.get(), [e, registry](void*) {
    {
      std::lock_guard guard{e->mutex};
      e->alive = false;
    }
    if (auto r = registry.lock())
      r->remove(e);
  });
}

void watch_registry::remove(const std::shared_ptr<entry>& e) {
  std::lock_guard guard{mutex_};
  entries_.erase(e);
}

void watch_registry::set_shards(std::uint32_t shards) {
  std::lock_guard guard{mutex_};
  shards_ = shards;
  owned_.assign(shards, 0);
}

void watch_registry::set_owned(const std::vector<std::int32_t>& shards, bool owned) {
  std::lock_guard guard{mutex_};
  for (auto shard : shards)
    if (shard >= 0 && static_cast<std::size_t>(shard) < owned_.size())
      owned_[static_cast<std::size_t>(shard)] = owned ? 1 : 0;
}

void watch_registry::clear_owned() {
  std::lock_guard guard{mutex_};
  std::fill(owned_.begin(), owned_.end(), 0);
}

std::vector<std::uint32_t> watch_registry::owned() const {
  std::lock_guard guard{mutex_};
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = 0; s < owned_.size(); ++s)
    if (owned_[s])
      out.push_back(s);
  return out;
}

bool watch_registry::owns(const std::string& name) const {
  std::lock_guard guard{mutex_};
  if (shards_ == 0)
    return false;
  return owned_[core::shard_of(name, shards_)] != 0;
}

void watch_registry::sync(entry& e) {
  std::lock_guard guard{e.mutex};
  if (!e.alive)
    return;
  bool now = owns(e.name);
  if (now == e.reported)
    return;
  e.reported = now;
  try {
    e.changed(now);
  } catch (const std::exception& ex) {
    spdlog::error("kafka bus: the ownership watch of {} threw: {}", e.name, ex.what());
  }
}

void watch_registry::sync_all() {
  std::vector<std::shared_ptr<entry>> all;
  {
    std::lock_guard guard{mutex_};
    all.assign(entries_.begin(), entries_.end());
  }
  for (auto& e : all)
    sync(*e);
}

bool watch_registry::sync_fresh() {
  if (!has_fresh_.exchange(false))
    return false;
  std::vector<std::weak_ptr<entry>> fresh;
  {
    std::lock_guard guard{mutex_};
    fresh.swap(fresh_);
  }
  for (auto& weak : fresh)
    if (auto e = weak.lock())
      sync(*e);
  return true;
}

} // namespace ganglion::kafka::detail
