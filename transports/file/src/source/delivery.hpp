#pragma once

// Private: how the file and sftp sources hand changes to the bus: one at a time, offered again
// while the bus refuses it, so a change the source saw is not lost while the process runs.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <optional>
#include <mutex>
#include <string>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "source/source_metrics.hpp"

namespace ganglion::file {

/// Tells a source's thread to end; its waits return early.
class stop_flag {
public:
  /// Ends every wait, now and later.
  void stop();
  /// True once stop() was called.
  bool stopped() const;
  /// Waits `duration` or until stop(); true when stopped.
  bool wait(std::chrono::steady_clock::duration duration) const;

private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool stopped_ = false;
};

/// Publishes one event at a time and waits for the bus's answer.
class delivery {
public:
  /// `name` prefixes the log lines (`file source es/event`).
  delivery(std::string name, std::shared_ptr<core::bus_publisher> bus, source_metrics& metrics,
           const stop_flag& stop);

  /// Publishes `event` and waits for the outcome; after `saturated` or `failed` offers it
  /// again (100 ms, doubling to 5 s) until the bus accepts or filters it. False when it was
  /// not taken: the bus stopped, or the source is stopping.
  bool deliver(const core::event& event);

private:
  std::optional<core::publish_status> publish_once(const core::event& event, std::string& error);

  std::string name_;
  std::shared_ptr<core::bus_publisher> bus_;
  source_metrics& metrics_;
  const stop_flag& stop_;
  core::log_throttle refused_log_;
};

} // namespace ganglion::file
