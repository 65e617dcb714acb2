#pragma once

// The file transport's integration tests: a bus that keeps what it accepts and can refuse.

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "eventually.hpp"
#include "ganglion/core/bus.hpp"

namespace ganglion::test {

/// A bus that keeps every event it accepts; it answers `saturated` to the first `refusals`
/// publishes.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    if (refusals > 0) {
      --refusals;
      done(core::publish_status::saturated, {});
      return;
    }
    {
      std::lock_guard guard{mutex_};
      events_.push_back(std::move(e));
    }
    done(core::publish_status::accepted, {});
  }

  /// Every event accepted so far.
  std::vector<core::event> events() {
    std::lock_guard guard{mutex_};
    return events_;
  }

  /// The data of the events of event `name` (every event when empty), in order.
  std::vector<std::string> data(const std::string& name = {}) {
    std::vector<std::string> out;
    for (const auto& e : events())
      if (name.empty() || e.subject == name)
        out.push_back(e.data);
    return out;
  }

  /// Waits (15 s at most) until event `name` (any, when empty) has `n` events.
  bool wait_for(std::size_t n, const std::string& name = {}) {
    return test::eventually([&] { return data(name).size() >= n; }, std::chrono::seconds(15));
  }

  std::atomic<int> refusals{0};

private:
  std::mutex mutex_;
  std::vector<core::event> events_;
};

} // namespace ganglion::test
