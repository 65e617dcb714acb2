#pragma once

// A bus for source tests that look at the events themselves (tests that link ganglion_core).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "ganglion/core/bus.hpp"

namespace ganglion::test {

/// A bus that keeps every event it accepts. `answer()` makes it refuse with another status;
/// `hold()` makes publish block until `release()`.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    core::publish_status status;
    {
      std::unique_lock lock{mutex_};
      gate_.wait(lock, [this] { return open_; });
      status = answer_;
      if (status == core::publish_status::accepted)
        events_.push_back(std::move(e));
    }
    changed_.notify_all();
    done(status, status == core::publish_status::accepted ? "" : "test bus says no");
  }

  /// Waits until `n` events arrived (or `timeout` passed) and returns them.
  std::vector<core::event> wait_for(std::size_t n,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock{mutex_};
    changed_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
    return events_;
  }

  /// The events accepted so far.
  std::vector<core::event> events() {
    std::lock_guard guard{mutex_};
    return events_;
  }

  /// How many events were accepted.
  std::size_t size() {
    std::lock_guard guard{mutex_};
    return events_.size();
  }

  /// Later events get `status` (accepted again: they are kept again).
  void answer(core::publish_status status) {
    std::lock_guard guard{mutex_};
    answer_ = status;
  }

  /// Later publish calls block until release().
  void hold() {
    std::lock_guard guard{mutex_};
    open_ = false;
  }

  /// Lets blocked and later publish calls through.
  void release() {
    {
      std::lock_guard guard{mutex_};
      open_ = true;
    }
    gate_.notify_all();
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::condition_variable gate_;
  bool open_ = true;
  core::publish_status answer_ = core::publish_status::accepted;
  std::vector<core::event> events_;
};

} // namespace ganglion::test
