#pragma once

// Private: hands a watch's events to the bus in order, keeping each until the bus accepted it
// (a watch cannot redeliver).

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::kubernetes::detail {

/// Settings of a publish_queue.
struct publish_queue_options {
  /// Events waiting at most; push() blocks beyond.
  std::size_t capacity = 10000;
  /// Events offered to the bus before their outcomes are awaited. Above 1, an event the bus
  /// refuses may be accepted after later ones of its batch (offered again after them).
  std::size_t window = 1;
  /// First and longest wait before offering again what the bus refused (saturated, failed).
  std::chrono::milliseconds min_retry{50};
  std::chrono::milliseconds max_retry{5000};
};

/// One thread that offers queued events to the bus in batches of `window` (one by default:
/// strict order), and offers again, after a backoff and before anything newer, those the bus
/// refused. Counts
/// `accepted` and the rejections `saturated`, `store_failed`, `stopped`.
class publish_queue {
public:
  publish_queue(std::shared_ptr<core::bus_publisher> bus, std::string name,
                const core::source_counters& metrics, publish_queue_options options = {});
  /// stop(), then waits for the thread; what is still queued is dropped (and logged).
  ~publish_queue();
  publish_queue(const publish_queue&) = delete;
  publish_queue& operator=(const publish_queue&) = delete;

  /// Queues `e`; blocks while `capacity` events wait. False once stopping (`e` dropped).
  bool push(core::event e);

  /// Wakes push() and the thread for good; a bus that said `stopped` does the same.
  void stop();

  /// Events queued or awaiting the bus's outcome.
  std::size_t pending() const;

private:
  struct outcome_state;

  void run();
  /// Offers `batch` and waits for every outcome; what the bus refused stays in `batch`.
  /// False when the bus is stopping.
  bool offer(std::deque<core::event>& batch);

  std::shared_ptr<core::bus_publisher> bus_;
  std::string name_;
  const core::source_counters& metrics_;
  publish_queue_options options_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<core::event> queue_;
  std::size_t in_flight_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::kubernetes::detail
