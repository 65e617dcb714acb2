#pragma once

// What a subscription to a remote bus delivered, for the tests of the bus drivers.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "eventually.hpp"
#include "ganglion/core/remote_bus.hpp"

namespace ganglion::test {

/// What one subscription delivered, in delivery order.
class inbox {
public:
  /// The handler to subscribe with.
  core::delivery_handler handler() {
    return [this](std::vector<core::event_ptr>&& events) {
      std::lock_guard guard{mutex_};
      for (auto& e : events)
        events_.push_back(std::move(e));
    };
  }

  /// Every delivery so far.
  std::vector<core::event_ptr> events() const {
    std::lock_guard guard{mutex_};
    return events_;
  }

  /// The ids, in delivery order.
  std::vector<std::string> ids() const {
    std::vector<std::string> out;
    for (auto& e : events())
      out.push_back(e->id);
    return out;
  }

  /// True when `id` was delivered.
  bool has(const std::string& id) const { return count(id) > 0; }

  /// How often `id` was delivered.
  std::size_t count(const std::string& id) const {
    auto all = ids();
    return static_cast<std::size_t>(std::count(all.begin(), all.end(), id));
  }

  /// Waits until `id` was delivered.
  bool wait_for(const std::string& id, std::chrono::milliseconds limit = std::chrono::seconds(15)) const {
    return test::eventually([&] { return count(id) > 0; }, limit);
  }

  /// The sequences of the events delivered with these ids.
  std::vector<std::uint64_t> sequences_of(const std::set<std::string>& ids) const {
    std::vector<std::uint64_t> out;
    for (auto& e : events())
      if (ids.count(e->id))
        out.push_back(e->sequence);
    return out;
  }

private:
  mutable std::mutex mutex_;
  std::vector<core::event_ptr> events_;
};

} // namespace ganglion::test
