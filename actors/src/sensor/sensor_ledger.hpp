#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/cursor_board.hpp"
#include "sensor/dedup_window.hpp"
#include "sensor/event_ledger.hpp"
#include "sensor/held_events.hpp"
#include "storage/event_log.hpp"
#include "ganglion/core/event.hpp"
#include "storage/sensor_store.hpp"
#include "runtime/unfinished_events.hpp"

namespace ganglion::core {

/// Where a durable sensor keeps its state, and how.
struct sensor_durability {
  std::string directory; ///< `<data-dir>/sensors/<sensor>`
  fsync_policy fsync = fsync_policy::interval;
  std::shared_ptr<event_log> log;
  std::shared_ptr<cursor_board> cursors;
  /// Where a sensor without stored state starts reading: the log's next sequence when the
  /// engine planned it, before any source of that plan could publish (0: when it recovers).
  std::uint64_t fresh_start = 0;
  /// How often the cursor moves forward (a snapshot of the unfinished events is written).
  std::chrono::milliseconds snapshot_interval{1000};
};

/// The at-least-once bookkeeping of one sensor on the durable bus. Every event the sensor
/// receives is handed to the matching core through a per-sensor handle; the event is finished
/// for this sensor once nothing holds that handle any more (no join holds it and no
/// `atLeastOnce` firing that contains it is still executing). Finished events go to a journal
/// (with their id's fingerprint for the dedup window); every `snapshot_interval` the cursor
/// moves to the next unprocessed sequence and the unfinished events below it are written in
/// full to a snapshot. After a restart the snapshot's events and the log from the cursor are
/// delivered again, skipping those the journal lists as finished: joins are rebuilt by
/// processing their events again, unfinished firings run again.
/// Not thread-safe: owned by the sensor actor.
class sensor_ledger final : public event_ledger {
public:
  /// Opens the sensor's state (creating it). `name` is the sensor's.
  sensor_ledger(std::string name, sensor_durability durability);

  /// Restores the dedup window and delivers, in order, every stored event the sensor has not
  /// finished (through `deliver`, which processes it). Events the bus delivers afterwards
  /// with a sequence at or below the last one replayed are skipped by `admit`.
  void recover(dedup_window& dedup,
               const std::function<void(const event_ptr&)>& deliver) override;

  /// The handle to give the matching core for `e`, or null when `e` was already processed
  /// (a redelivery at or below what recovery replayed).
  event_ptr admit(const event_ptr& e) override;

  /// For a firing to a trigger that is not `atLeastOnce`: the same events without this sensor's
  /// handles, so the trigger's execution does not hold them unfinished.
  void release(std::map<std::string, event_ptr>& events) const override;

  /// Finds finished events, journals them and, when due, moves the cursor. Cheap when nothing
  /// changed; call after every batch and on a timer while events are unfinished. Returns how
  /// many events finished since the last call.
  std::size_t commit(bool force_snapshot = false) override;

  /// Events received and not finished yet.
  std::size_t unfinished() const noexcept override { return held_.size(); }

  /// Where trigger actors put events they gave up on.
  const std::shared_ptr<unfinished_events>& kept() const noexcept override { return kept_; }

private:
  void save_snapshot();

  std::string name_;
  sensor_durability durability_;
  sensor_store store_;
  std::shared_ptr<unfinished_events> kept_ = std::make_shared<unfinished_events>();
  held_events held_;
  std::vector<completion> finished_;
  std::size_t unjournaled_ = 0; ///< entries of finished_ a failed commit left to journal
  bool store_failing_ = false;   ///< the last commit could not write; logged once
  std::uint64_t next_ = 0;          ///< one past the highest sequence processed
  std::uint64_t replayed_until_ = 0; ///< the highest sequence recovery delivered
  std::uint64_t cursor_ = 0;
  std::chrono::steady_clock::time_point last_snapshot_{};
  std::chrono::steady_clock::time_point generation_start_{};
  std::size_t generation_entries_ = 0;
  std::chrono::milliseconds generation_span_{10000};
  std::size_t generation_capacity_ = 1u << 19;
};

} // namespace ganglion::core
