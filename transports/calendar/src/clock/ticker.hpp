#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace ganglion::calendar::detail {

/// One thread that runs tasks at wall-clock times for every calendar source of the process:
/// a thousand sources cost one thread, and it sleeps until the earliest task is due.
class ticker {
public:
  using clock = std::chrono::system_clock;
  using task = std::function<void()>;

  ticker() = default;
  ticker(const ticker&) = delete;
  ticker& operator=(const ticker&) = delete;
  /// Stops the thread; tasks not run yet are dropped.
  ~ticker();

  /// Runs `fn` on the ticker's thread at `when` (at once when it is past); tasks due at the
  /// same time run in the order they were given. Returns an id for cancel().
  std::uint64_t at(clock::time_point when, task fn);

  /// Runs `fn` on the ticker's thread as soon as it can.
  void post(task fn) { at(clock::time_point::min(), std::move(fn)); }

  /// Drops the task `id` when it has not started.
  void cancel(std::uint64_t id);

private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  /// Due time and id (unique, increasing) → task.
  std::map<std::pair<clock::time_point, std::uint64_t>, task> tasks_;
  std::map<std::uint64_t, clock::time_point> due_;
  std::uint64_t next_id_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::calendar::detail
