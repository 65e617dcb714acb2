#pragma once

// A bus for source tests that look at the events themselves (tests that link ganglion_core).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "ganglion/core/bus.hpp"

namespace ganglion::test {

/// A bus that keeps every event it accepts. `refuse_next()` makes it answer `saturated` to the
/// next publishes, `answer()` refuse with another status until told otherwise; `hold()` makes
/// publish block until `release()`.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    core::publish_status status;
    {
      std::unique_lock lock{mutex_};
      gate_.wait(lock, [this] { return open_; });
      status = answer_;
      if (refusals_ > 0) {
        --refusals_;
        status = core::publish_status::saturated;
      }
      if (status != core::publish_status::accepted)
        ++refused_;
      else
        events_.push_back(std::move(e));
    }
    // Answered before waiters wake: what they look at next (the source's counters) has seen it.
    done(status, status == core::publish_status::accepted ? "" : "test bus says no");
    changed_.notify_all();
  }

  /// Waits until `n` events arrived (or `timeout` passed) and returns them.
  std::vector<core::event> wait_for(std::size_t n,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock{mutex_};
    changed_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
    return events_;
  }

  /// Waits (15 s at most) until `n` events of subject `subject` (any, when empty) were accepted.
  bool arrived(std::size_t n, const std::string& subject = {}) {
    std::unique_lock lock{mutex_};
    return changed_.wait_for(lock, std::chrono::seconds(15), [&] {
      return subject.empty() ? events_.size() >= n : data_locked(subject).size() >= n;
    });
  }

  /// The data of the accepted events of subject `subject` (every one when empty), in order.
  std::vector<std::string> data(const std::string& subject = {}) {
    std::lock_guard guard{mutex_};
    return data_locked(subject);
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

  /// The next `n` publishes (replacing what was left of an earlier call) answer `saturated`.
  void refuse_next(int n) {
    std::lock_guard guard{mutex_};
    refusals_ = n;
  }

  /// How many publishes were refused so far.
  int refused() {
    std::lock_guard guard{mutex_};
    return refused_;
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
  std::vector<std::string> data_locked(const std::string& subject) const {
    std::vector<std::string> out;
    for (const auto& e : events_)
      if (subject.empty() || e.subject == subject)
        out.push_back(e.data);
    return out;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::condition_variable gate_;
  bool open_ = true;
  core::publish_status answer_ = core::publish_status::accepted;
  int refusals_ = 0;
  int refused_ = 0;
  std::vector<core::event> events_;
};

} // namespace ganglion::test
