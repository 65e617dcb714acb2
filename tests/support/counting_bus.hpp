#pragma once

// A bus for source tests that only need to know how many events arrived (tests that link
// ganglion_core).

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "ganglion/core/bus.hpp"

namespace ganglion::test {

/// A bus that accepts every event and counts them.
class counting_bus : public core::bus_publisher {
public:
  void publish(core::event&&, core::publish_done done) override {
    {
      std::lock_guard guard{mutex_};
      ++count_;
    }
    changed_.notify_all();
    done(core::publish_status::accepted, {});
  }

  /// True once `n` events arrived (10 s at most).
  bool wait_for(int n) {
    std::unique_lock lock{mutex_};
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return count_ >= n; });
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int count_ = 0;
};

} // namespace ganglion::test
