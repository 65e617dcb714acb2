#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "storage/storage_io.hpp"

namespace ganglion::core {

/// fdatasyncs one file in the background, at most every `interval` and only when it was
/// written since: the log's `interval` policy, without an append ever waiting for the disk.
class background_sync {
public:
  /// `observe` receives the duration of every fdatasync (seconds), from the sync thread.
  background_sync(std::chrono::milliseconds interval, std::function<void(double)> observe);
  /// Stops the thread (a last pending sync is not run: the log's writer syncs at close).
  ~background_sync();
  background_sync(const background_sync&) = delete;
  background_sync& operator=(const background_sync&) = delete;

  /// Syncs `fd` from now on (duplicated; the caller keeps its own).
  void follow(int fd);

  /// Bytes were written to the followed file.
  void written() noexcept { pending_.store(true, std::memory_order_release); }

  /// The first fdatasync error, empty while none happened.
  std::string error() const;

private:
  void run();

  std::chrono::milliseconds interval_;
  std::function<void(double)> observe_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  unique_fd fd_;
  bool stop_ = false;
  std::string error_;
  std::atomic<bool> pending_{false};
  std::thread thread_;
};

} // namespace ganglion::core
