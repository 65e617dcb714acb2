#pragma once

// Not installed: the thread of a source that runs one loop of its own (a pull source's
// receiving loop), with the waits that end when it is told to stop.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ganglion::core {

/// One thread running a loop until stopped. Declare it as the owner's last member, so that it
/// stops before what the loop uses is destroyed.
class stoppable_thread {
public:
  stoppable_thread() = default;
  stoppable_thread(const stoppable_thread&) = delete;
  stoppable_thread& operator=(const stoppable_thread&) = delete;
  ~stoppable_thread() { stop(); }

  /// Runs `loop` on the thread (once).
  void start(std::function<void()> loop) { thread_ = std::thread(std::move(loop)); }

  /// Tells the loop to stop, wakes its pause and joins it; from the loop itself (its owner
  /// destroyed from a callback the loop made), detaches instead: the loop must then touch
  /// nothing of its owner after that callback. Idempotent.
  void stop() {
    {
      std::lock_guard guard{mutex_};
      stopping_ = true;
    }
    changed_.notify_all();
    if (!thread_.joinable())
      return;
    if (thread_.get_id() == std::this_thread::get_id())
      thread_.detach();
    else
      thread_.join();
  }

  /// True once told to stop.
  bool stopping() const noexcept { return stopping_.load(); }

  /// Waits `delay` unless told to stop first; false when stopping.
  bool pause(std::chrono::milliseconds delay) {
    std::unique_lock lock{mutex_};
    return !changed_.wait_for(lock, delay, [this] { return stopping_.load(); });
  }

private:
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_;
};

} // namespace ganglion::core
