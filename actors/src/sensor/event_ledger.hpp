#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "sensor/dedup_window.hpp"
#include "ganglion/core/event.hpp"
#include "runtime/unfinished_events.hpp"

namespace ganglion::core {

/// The at-least-once bookkeeping of one sensor: every event the sensor receives is handed to
/// the matching core through a per-sensor handle, and the event is finished for this sensor
/// once nothing holds that handle any more (no join holds it and no `atLeastOnce` firing that
/// contains it is still executing). Implementations: sensor_ledger (the embedded bus's log)
/// and remote_ledger (JetStream, Kafka). Not thread-safe: owned by the sensor actor.
class event_ledger {
public:
  virtual ~event_ledger() = default;

  /// Restores the dedup window and delivers, in order, every stored event the sensor has not
  /// finished (through `deliver`, which processes it).
  virtual void recover(dedup_window& dedup,
                       const std::function<void(const event_ptr&)>& deliver) = 0;

  /// The handle to give the matching core for `e`, or null when `e` is being or has been
  /// processed already (a redelivery).
  virtual event_ptr admit(const event_ptr& e) = 0;

  /// For a firing to a trigger that is not `atLeastOnce`: the same events without this sensor's
  /// handles, so the trigger's execution does not hold them unfinished.
  virtual void release(std::map<std::string, event_ptr>& events) const = 0;

  /// Settles what finished and, when due, stores the unfinished events. Cheap when nothing
  /// changed; call after every batch and on a timer while events are unfinished. Returns how
  /// many events finished since the last call.
  virtual std::size_t commit(bool force_snapshot = false) = 0;

  /// Events received and not finished yet.
  virtual std::size_t unfinished() const noexcept = 0;

  /// Where trigger actors put events they gave up on.
  virtual const std::shared_ptr<unfinished_events>& kept() const noexcept = 0;
};

} // namespace ganglion::core
