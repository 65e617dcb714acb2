#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "sensor/condition_reset.hpp"
#include "bus/embedded_bus.hpp"
#include "sensor/explain_log.hpp"
#include "ganglion/core/status.hpp"
#include "ganglion/core/trigger.hpp"
#include "runtime/messages.hpp"
#include "sensor/sensor_core.hpp"
#include "sensor/event_ledger.hpp"
#include "ganglion/core/remote_bus.hpp"
#include "sensor/sensor_ledger.hpp"
#include "runtime/supervisor.hpp"
#include "trigger/trigger_actor.hpp"
#include "runtime/work_tracker.hpp"

namespace ganglion::core {

/// A matching core compiled once, by the engine while it plans the sensor (which is how it finds
/// a sensor that cannot run), for the sensor actor that starts from that plan.
class prebuilt_core {
public:
  /// Holds `core` until an actor takes it.
  explicit prebuilt_core(std::unique_ptr<sensor_core> core) : core_(std::move(core)) {}

  /// The core, to the first caller; null afterwards (a restarted actor starts from a fresh
  /// core, so it compiles its own).
  std::unique_ptr<sensor_core> take() {
    std::lock_guard guard{mutex_};
    return std::move(core_);
  }

private:
  std::mutex mutex_;
  std::unique_ptr<sensor_core> core_;
};

/// Everything a sensor actor needs to start.
struct sensor_setup {
  std::shared_ptr<const dsl::sensor> manifest;
  /// Per trigger (by index): its setup, or nullopt when its action type cannot run here.
  std::vector<std::optional<trigger_setup>> triggers;
  std::shared_ptr<embedded_bus> bus;
  std::shared_ptr<work_tracker> work;
  status_board* status = nullptr;
  metrics_registry* metrics = nullptr;
  supervision_policy policy;
  sensor_options matching;
  /// The core compiled from `manifest` with `metrics` and `matching`, when the engine built one.
  std::shared_ptr<prebuilt_core> core;
  /// Where the sensor records its recent verdicts for /v1/explain.
  std::shared_ptr<explain_log> explain;
  /// Where the sensor keeps its state on the durable bus (null: in memory).
  std::shared_ptr<const sensor_durability> durable;
  /// The remote bus (JetStream, Kafka) the sensor consumes when this replica owns it; null on
  /// the embedded bus.
  std::shared_ptr<remote_bus> remote;
  /// Canonical text of each part of the manifest (`dependency/<name>`, `trigger/<name>`,
  /// `sensor` for the rest), compared by a reload to restart only what changed.
  std::map<std::string, std::string> fingerprints;
};

/// Hot reload of a running sensor: the new setup replaces the old one; unchanged dependencies
/// keep their join state, unchanged triggers keep running.
struct reconfigure_sensor {
  std::shared_ptr<const sensor_setup> setup;
};

/// State of a sensor actor: its matching core and its supervised trigger actors.
struct sensor_state {
  sensor_setup setup;
  std::unique_ptr<sensor_core> core;
  std::unique_ptr<child_supervisor> children;
  std::vector<std::size_t> child_index;
  /// Firings for a trigger that is restarting, delivered when it is back.
  std::vector<std::deque<fire_request>> parked;
  std::vector<bool> dead;
  /// Per trigger: its running actor said it takes firings (until then they are parked).
  std::vector<bool> ready;
  std::vector<firing> scratch;
  std::vector<dependency_verdict> verdicts;
  /// Delivered batches not yet processed, oldest first: the actor works them off in slices so
  /// that the other actors of its thread run, and a shutdown is seen, in between.
  std::deque<event_batch> backlog;
  /// How far into backlog.front() processing has come.
  std::size_t backlog_next = 0;
  /// Per trigger: its conditionsReset clocks.
  std::vector<std::vector<condition_reset_clock>> reset_clocks;
  counter* dropped = nullptr;
  counter* received = nullptr;
  /// At-least-once bookkeeping on the durable or a remote bus (null in memory, and on a remote
  /// bus while another replica owns the sensor).
  std::unique_ptr<event_ledger> ledger;
  /// On a remote bus: the ownership watch, and the subscription while this replica owns it.
  std::shared_ptr<void> owner_watch;
  std::shared_ptr<remote_subscription> subscription;
  bool owned = false;
  /// When the next commit tick is due, and the wait before the one after it: 1 ms while
  /// events finish, doubling to a second while nothing does (a join held for hours must not
  /// wake the sensor a thousand times a second).
  std::chrono::steady_clock::time_point next_commit{};
  std::chrono::milliseconds commit_delay{1};
  /// Counts reloads; a conditionsReset scheduled before the latest one is ignored.
  std::uint64_t generation = 0;
  /// Manifests replaced by reloads: triggers kept running still refer to them.
  std::vector<std::shared_ptr<const dsl::sensor>> retired;
  /// Set on shutdown: the sensor quits with this reason once its last trigger is down.
  std::optional<caf::error> stopping;
  /// In the Error phase because its scripts were cut off repeatedly.
  bool cut_off_error = false;
  /// A trigger's condition joins several dependencies: /v1/explain shows what waits.
  bool joins = false;

  ~sensor_state();
  static inline const char* name = "ganglion.sensor";
};

/// One actor per sensor: receives event batches from the bus, runs the matching core, and
/// hands firings to its trigger actors, which it supervises.
caf::behavior sensor_actor(caf::stateful_actor<sensor_state>* self, sensor_setup setup);

} // namespace ganglion::core

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::reconfigure_sensor)
