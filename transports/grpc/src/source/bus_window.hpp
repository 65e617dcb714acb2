#pragma once

// Private: how a generic source's stream hands events to the bus.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "source/source_metrics.hpp"

namespace ganglion::grpc::detail {

/// Offers the events of a source's streams to the bus with at most `limit` unanswered. An
/// event the bus refuses (saturated, store failed) is not dropped: it is offered again, with
/// backoff, before any newer event, and the stream is not read meanwhile — so gRPC's flow
/// control holds the signal service while the bus is full. Thread-safe; shared by the
/// outcomes of the publishes in flight.
class bus_window : public std::enable_shared_from_this<bus_window> {
public:
  bus_window(std::shared_ptr<core::bus_publisher> bus, std::size_t limit,
             source_metrics metrics, std::string name);

  /// Offers `e`; blocks while the window is full or refused events wait. False once stop()
  /// was called (`e` is then dropped and counted `stopped`).
  bool offer(core::event e);

  /// Ends every wait; offer() refuses from now on. Refused events still waiting are dropped,
  /// counted and logged.
  void stop();

private:
  /// Publishes `e`, which the caller already counted in flight.
  void publish(core::event e);
  void settle(core::publish_status status, const std::string& error,
              std::shared_ptr<core::event> copy);

  std::shared_ptr<core::bus_publisher> bus_;
  const std::size_t limit_;
  const source_metrics metrics_;
  const std::string name_;
  core::log_throttle refusal_log_{std::chrono::seconds(10)};

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t in_flight_ = 0;
  std::deque<core::event> refused_;
  bool stopping_ = false;
};

} // namespace ganglion::grpc::detail
