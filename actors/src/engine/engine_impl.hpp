#pragma once

// The engine's private state, shared by engine.cpp (start, stop) and engine_reload.cpp.

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "storage/cursor_board.hpp"
#include "bus/embedded_bus.hpp"
#include "storage/event_log.hpp"
#include "engine/engine_root.hpp"
#include "sensor/explain_log.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/source_store.hpp"
#include "ganglion/dsl/dependencies.hpp"
#include "sensor/sensor_actor.hpp"
#include "sensor/sensor_ledger.hpp"
#include "trigger/trigger_actor.hpp"
#include "runtime/work_tracker.hpp"

namespace ganglion::core {

struct reload_draft;
struct reload_job;

/// The dependencies of the Sensor of `doc` that no event of `provided` serves, dependency →
/// why (dsl::unresolved_dependencies), for /v1/explain; with `warn`, each is logged located, as
/// `validate` reports it.
std::map<std::string, std::string> warn_unresolved(const dsl::document& doc,
                                                   const dsl::provided_events& provided,
                                                   bool warn = true);

/// Whether the calling thread is one of the scheduler threads of `system`, where waiting for
/// the system's actors could deadlock (engine_stop.cpp).
bool on_scheduler_thread(caf::actor_system& system);

struct engine::impl {
  engine_options options;
  source_registry sources;
  trigger_registry triggers;
  status_board status;
  metrics_registry metrics;
  std::shared_ptr<work_tracker> work = std::make_shared<work_tracker>();
  std::shared_ptr<const secret_store> secrets;
  caf::actor_system_config config;
  /// The system the tree runs in: `owned_system`, or the host's (never stopped here).
  caf::actor_system* system = nullptr;
  std::unique_ptr<caf::actor_system> owned_system;
  std::shared_ptr<embedded_bus> bus;
  /// What sources keep across restarts (source_context::store); outlives reloads.
  std::shared_ptr<source_store> source_values;
  // durable bus (null in memory)
  std::shared_ptr<event_log> log;
  std::shared_ptr<cursor_board> cursors;
  fsync_policy fsync = fsync_policy::interval;
  caf::actor root;
  std::vector<std::shared_ptr<const dsl::event_source>> event_sources;
  std::map<std::string, std::shared_ptr<explain_log>> explain_logs;
  bool started = false;
  /// Set by the stop; read by reloads and status from other threads.
  std::atomic<bool> stopped{false};
  /// Set once every component is registered in `status`, so that readiness is not judged on
  /// a half-built plan.
  std::atomic<bool> planned{false};

  /// What the latest start or reload refused to run (check_runnability), guarded by
  /// refusals_mutex (admin threads read it).
  std::vector<refusal> refused;
  mutable std::mutex refusals_mutex;

  /// Recomputes `refused` for the manifest set `documents`.
  void check(const std::vector<dsl::document>& documents);
  /// The refusal of component (kind, name); nullptr when it may run.
  const refusal* refusal_of(const std::string& kind, const std::string& name) const;

  supervision_policy policy() const {
    return {options.max_failures, options.failure_window, options.initial_backoff,
            options.max_backoff};
  }

  void plan_sources(const dsl::event_source& es, root_plan& plan);
  void plan_sensor(const dsl::sensor& sensor, root_plan& plan,
                   const std::map<std::string, std::string>& fingerprints,
                   std::map<std::string, std::string> unfed);
  std::optional<trigger_setup> plan_trigger(const dsl::sensor& sensor, const dsl::trigger& t);
  /// Opens the data directory's log (durable bus).
  void open_log();
  /// The constructors' common part, once `system` is set.
  void init(engine_options options, source_registry sources, trigger_registry triggers);
  /// Where `sensor` keeps its state on the durable bus; null in memory.
  std::shared_ptr<const sensor_durability> durability_of(const std::string& sensor);
  /// Where the durable state of `sensor` lives: `<data-dir>/sensors/<name>`, and for a cluster
  /// object (`<namespace>/<name>`) `<data-dir>/namespaces/<namespace>/sensors/<name>`, so no
  /// sensor's folder holds another's.
  std::string state_directory(const std::string& sensor) const;

  // hot reload
  /// Fingerprints of the running manifests (see dsl::document::fingerprints), by name.
  std::map<std::string, std::map<std::string, std::string>> running_sources;
  std::map<std::string, std::map<std::string, std::string>> running_sensors;
  std::map<std::string, std::string> running_buses;
  /// One reload at a time: set while one is applied; the ones asked for meanwhile wait in
  /// `queued_reloads`, in order. Both guarded by reload_mutex.
  bool reloading = false;
  std::deque<std::pair<std::vector<dsl::document>, reload_done>> queued_reloads;
  std::mutex reload_mutex;
  /// Plans the reload of `documents` and spawns the actor that applies it and then calls
  /// `done` (engine_reload.cpp); `self` is this state, which that actor keeps alive.
  static void begin_reload(const std::shared_ptr<impl>& self,
                           std::vector<dsl::document> documents, reload_done done);
  /// Takes the next queued reload, or ends `reloading` when none waits.
  static void next_reload(const std::shared_ptr<impl>& self);
  /// Guards explain_logs, which a reload changes while admin threads read them.
  mutable std::mutex explain_mutex;
  /// Records the fingerprints of `documents` as the running set.
  void remember(const std::vector<dsl::document>& documents);
  /// The child running `event`, one of `manifest`'s own events; nullopt when no source of its
  /// type is registered (reported in status).
  std::optional<child_spec> source_child(const std::shared_ptr<const dsl::event_source>& manifest,
                                         const dsl::source_event& event);
  /// The child running `sensor` (its setup in `built` when not null); nullopt when it cannot
  /// run (reported in status). `unfed`: its dependencies no loaded source serves, and why.
  std::optional<child_spec> sensor_child(const dsl::sensor& sensor,
                                         const std::map<std::string, std::string>& fingerprints,
                                         std::map<std::string, std::string> unfed,
                                         std::shared_ptr<const sensor_setup>* built = nullptr);
  /// Names the dependencies of sensor `name` and the unfed ones in its /v1/explain log.
  void explain_dependencies(const dsl::sensor& sensor, std::map<std::string, std::string> unfed);
  /// Drops what a removed sensor left behind (durable state); called once it is down.
  void forget_sensor(const std::string& name);
  /// The backlog of `sensor` on the embedded bus, with its two gauges (created once, kept
  /// through restarts and reloads of the sensor). Planning only: not guarded.
  std::shared_ptr<sensor_backlog> backlog_of(const std::string& sensor);
  std::map<std::string, std::shared_ptr<sensor_backlog>> backlogs;
  /// The reload steps of the EventSources and Sensors of `draft` (engine_reload.cpp).
  void diff_sources(reload_draft& draft);
  void diff_sensors(reload_draft& draft);
  /// Plans `job`: its steps, what needs a restart, the phases kept through it.
  void plan_reload(reload_job& job);
  /// What is left once the root applied `job`: status, removed sensors' state, the running
  /// set, the log lines.
  void finish_reload(reload_job& job);
  /// The actor that has the root apply `job`, waits for its new sources to report, finishes
  /// it and answers (engine_reload_apply.cpp).
  static caf::behavior reload_applier(caf::event_based_actor* self, std::shared_ptr<impl> d,
                                      std::shared_ptr<reload_job> job);
};


} // namespace ganglion::core
