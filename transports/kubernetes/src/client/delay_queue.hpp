#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace ganglion::kubernetes::detail {

/// Runs tasks after a delay, one at a time, on its own thread (the client's second thread:
/// retries after a `Retry-After`, requests refused at once).
class delay_queue {
public:
  /// A task; `cancelled` when the queue shuts down before its time.
  using task = std::function<void(bool cancelled)>;

  delay_queue();
  /// shutdown().
  ~delay_queue();
  delay_queue(const delay_queue&) = delete;
  delay_queue& operator=(const delay_queue&) = delete;

  /// Runs `t` after `delay`; once shut down, runs it at once, cancelled, on this thread.
  void post(std::chrono::steady_clock::duration delay, task t);

  /// Runs every pending task cancelled and joins the thread. Idempotent.
  void shutdown();

private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::multimap<std::chrono::steady_clock::time_point, task> tasks_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::kubernetes::detail
