#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

namespace ganglion::core {

/// Events the embedded bus routed to one sensor that the sensor has not judged yet, and how
/// long the oldest of them has waited: the gauges `ganglion_sensor_backlog` and
/// `ganglion_sensor_backlog_oldest_milliseconds`, what an autoscaler reads. The bus's
/// dispatcher enters each batch it sends; the batch's entry leaves once the sensor has judged
/// the batch, or with the batch when it is dropped (the sensor ended). Thread-safe.
class sensor_backlog : public std::enable_shared_from_this<sensor_backlog> {
public:
  using clock = std::chrono::steady_clock;

  /// One batch's place in the backlog; it leaves when this is destroyed.
  class entry {
  public:
    ~entry() { owner_->leave(at_); }
    entry(const entry&) = delete;
    entry& operator=(const entry&) = delete;

  private:
    friend class sensor_backlog;
    struct batch {
      clock::time_point routed;
      std::int64_t events;
    };
    entry(std::shared_ptr<sensor_backlog> owner, std::list<batch>::iterator at)
      : owner_(std::move(owner)), at_(at) {}
    std::shared_ptr<sensor_backlog> owner_;
    std::list<batch>::iterator at_;
  };

  /// Enters a batch of `events` routed at `now`.
  std::shared_ptr<entry> enter(std::size_t events, clock::time_point now) {
    std::lock_guard guard{mutex_};
    auto at = batches_.insert(batches_.end(), {now, static_cast<std::int64_t>(events)});
    events_ += static_cast<std::int64_t>(events);
    return std::shared_ptr<entry>(new entry(shared_from_this(), at));
  }

  /// Events waiting.
  std::int64_t events() const {
    std::lock_guard guard{mutex_};
    return events_;
  }

  /// How long the oldest waiting batch has waited at `now`, in milliseconds (0: none waits).
  std::int64_t oldest_ms(clock::time_point now) const {
    std::lock_guard guard{mutex_};
    if (batches_.empty())
      return 0;
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - batches_.front().routed)
      .count();
  }

private:
  void leave(std::list<entry::batch>::iterator at) {
    std::lock_guard guard{mutex_};
    events_ -= at->events;
    batches_.erase(at);
  }

  mutable std::mutex mutex_;
  std::list<entry::batch> batches_;
  std::int64_t events_ = 0;
};

} // namespace ganglion::core
