#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "storage/event_log.hpp"

namespace ganglion::core {

/// The committed cursor of every durable sensor; the log may drop what all of them finished.
/// Thread-safe.
class cursor_board {
public:
  explicit cursor_board(std::shared_ptr<event_log> log) : log_(std::move(log)) {}

  /// Records `sensor`'s cursor (every sequence below it is finished for that sensor).
  void commit(const std::string& sensor, std::uint64_t cursor) {
    std::lock_guard guard{mutex_};
    cursors_[sensor] = cursor;
    // Thousands of sensors commit every second; the log needs the lowest cursor far less often.
    auto now = std::chrono::steady_clock::now();
    if (now - last_release_ >= std::chrono::seconds(1)) {
      last_release_ = now;
      release();
    }
  }

  /// Holds back everything for `sensor` until it commits its first cursor (a sensor about to
  /// recover); nothing when it is known already.
  void pin(const std::string& sensor) {
    std::lock_guard guard{mutex_};
    cursors_.try_emplace(sensor, 0);
  }

  /// Forgets a sensor that no longer runs.
  void remove(const std::string& sensor) {
    std::lock_guard guard{mutex_};
    cursors_.erase(sensor);
    release();
  }

private:
  void release() {
    auto lowest = log_->next_sequence();
    for (const auto& [name, cursor] : cursors_)
      lowest = std::min(lowest, cursor);
    log_->release(lowest);
  }

  std::shared_ptr<event_log> log_;
  std::mutex mutex_;
  std::map<std::string, std::uint64_t> cursors_;
  std::chrono::steady_clock::time_point last_release_{};
};

} // namespace ganglion::core
