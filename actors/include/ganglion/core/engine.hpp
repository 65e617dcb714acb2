#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/runnability.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/status.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// What engine::stop(listener) sends its listener once the engine is down.
using engine_stopped_atom = caf::atom_constant<caf::atom("gl_stopped")>;

/// How the durable embedded bus writes its log (used when engine_options::data_dir is set).
struct durability_options {
  /// `always` (fdatasync before acknowledging, group commit), `interval` (acknowledge once
  /// written; fdatasync every fsync_interval) or `never` (the kernel decides).
  std::string fsync = "interval";
  std::chrono::milliseconds fsync_interval{100};
  std::uint64_t segment_bytes = 64ull << 20;
  /// Finished segments are deleted beyond this total size or age.
  std::uint64_t retention_bytes = 1ull << 30;
  std::chrono::seconds retention_age{86400};
};

/// Engine settings (the `run` command line maps onto these).
struct engine_options {
  std::string secrets_dir;
  /// Where secrets come from when set (cluster mode: Kubernetes Secrets); else `secrets_dir`.
  std::shared_ptr<const secret_store> secrets;
  /// Where the embedded bus keeps its log and sensors their state; empty: in memory only (a
  /// crash loses accepted events).
  std::string data_dir;
  durability_options durability;
  /// A bus outside the process (JetStream, Kafka) shared with other replicas; null: the
  /// embedded bus. With one, `data_dir` is not used: the bus keeps the events and the state.
  std::shared_ptr<remote_bus> remote;
  /// The cluster's ConfigMaps as source stores (cluster mode); null: sources keep their values
  /// in the store above only.
  config_map_stores config_maps;
  /// Events alive in the engine at once (queued, held in joins or in triggers) before sources
  /// are refused with back-pressure.
  std::size_t bus_capacity = 65536;
  /// Bytes of those events (their fields) alive at once, for the same back-pressure: the bus
  /// is bounded in memory however large the events are.
  std::size_t bus_capacity_bytes = std::size_t{1} << 30;
  /// A child failing this many times within `failure_window` stays in phase Error.
  std::uint32_t max_failures = 3;
  std::chrono::milliseconds failure_window{60000};
  /// First restart delay; doubles per failure up to `max_backoff`.
  std::chrono::milliseconds initial_backoff{200};
  std::chrono::milliseconds max_backoff{10000};
  /// How long stop() waits for in-flight triggers.
  std::chrono::milliseconds shutdown_grace{10000};
  /// Concurrent executions per trigger.
  std::size_t trigger_concurrency = 64;
  /// Scheduler threads of the engine's own actor system (0: one per core but one, at least one
  /// — the transport threads that receive events need a core too; on 2 cores this measured 15%
  /// more webhook events/s). Not used on a host's system.
  std::size_t scheduler_threads = 0;
  /// A sensor skips an event whose id it processed within this window (0: never).
  std::chrono::milliseconds dedup_window{300000};
  /// Time one run of a sensor's jq or Lua transform or Lua script filter may take before it is
  /// cut off (the event then fails that dependency).
  std::chrono::milliseconds script_budget{100};
};

/// What a hot reload did, by component (`source/<eventsource>/<event>`, `sensor/<name>`,
/// `eventbus/<name>`).
struct reload_result {
  std::vector<std::string> started;      ///< new sources and sensors
  std::vector<std::string> stopped;      ///< removed ones
  std::vector<std::string> restarted;    ///< changed sources, stopped and started again
  std::vector<std::string> reconfigured; ///< changed sensors, reconfigured in place
  std::vector<std::string> unchanged;
  /// Changes a reload does not apply (the EventBus): they need a restart of the process.
  std::vector<std::string> needs_restart;

  /// One line, e.g. `1 started, 0 stopped, 1 restarted, 1 reconfigured, 3 unchanged`.
  std::string summary() const;
};

struct engine_stop_signal;

/// The running engine: the actor system, the supervised tree of sources, bus, sensors and
/// triggers built from manifests, and the state that admin endpoints read.
class engine {
public:
  /// Opens the data directory (when set) and recovers its log. Throws std::runtime_error when
  /// it cannot (in use by another process, unreadable, a bad fsync policy).
  engine(engine_options options, source_registry sources, trigger_registry triggers);
  /// The same, but the tree runs in the host's `system`, which must outlive this engine.
  /// `options.scheduler_threads` is not used; stop() (and the destructor) end the engine's
  /// actors only, waiting until its root is down (the root waits for the bus, sources and
  /// sensors, each sensor for its trigger actors), and never stop `system`.
  engine(caf::actor_system& system, engine_options options, source_registry sources,
         trigger_registry triggers);
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Builds and starts the actor tree for `documents` (already validated). Components that
  /// cannot run (unsupported types) are reported in status as Error; the rest run.
  void start(const std::vector<dsl::document>& documents);

  /// Hot reload: applies `documents` (already validated; the complete new set) to the running
  /// engine, comparing them with the running set by fingerprint. Only changed parts restart: a
  /// new source or sensor starts, a removed one stops, a changed source event restarts, a
  /// changed sensor is reconfigured in place (unchanged dependencies keep their join state).
  /// One reload at a time; callable after start() from any thread but a scheduler thread of
  /// the engine's actor system (std::logic_error there, where waiting could deadlock: use
  /// reload(documents, done)). Blocks until the changes are applied and the new sources
  /// report how their start went.
  reload_result reload(const std::vector<dsl::document>& documents);

  /// What reload(documents, done) calls once the reload is applied.
  using reload_done = std::function<void(reload_result)>;

  /// The same without blocking: plans at once (throws std::logic_error as reload() when the
  /// engine does not run), applies from an actor of the engine's system and then calls `done`
  /// on one of its threads. Reloads asked for while one is applied wait for it and follow in
  /// order. Callable from anywhere, an actor's handler included.
  void reload(const std::vector<dsl::document>& documents, reload_done done);

  /// What restart_source did.
  enum class restart_outcome {
    restarted, ///< the source starts again with its failures cleared
    unknown,   ///< no such source runs (nor is refused)
    refused,   ///< the source cannot run (check_runnability); restarting would not help
    stopped,   ///< the engine is not running
  };

  /// Starts source `<event_source>/<event>` again with its current manifest and no failures:
  /// the way out of phase Error without a reload (a signal service that is back). A running
  /// source is stopped first. Does not wait for the new start: the root supervisor gets the
  /// request and the source's phase in status() follows. Callable from any thread after start().
  restart_outcome restart_source(const std::string& event_source, const std::string& event);

  /// Stops accepting events, waits up to shutdown_grace for in-flight triggers, stops all.
  /// Blocks until done. Throws std::logic_error when called on a scheduler thread of the
  /// engine's actor system (an actor's message handler), where waiting could deadlock: use
  /// stop(listener) there. Waits for a stop(listener) in progress.
  void stop();

  /// The same without blocking: returns at once, stops from a thread of its own and then
  /// sends `listener` (when not null) an `engine_stopped_atom`. Callable from anywhere, an
  /// actor's handler included. The engine may be destroyed before the message arrives (on a
  /// host's system; with its own system the destructor waits for the stop).
  void stop(const caf::actor& listener);

  /// The root of the engine's actor tree, to monitor or link: it goes down once the engine
  /// stops (after its bus, sources, sensors and triggers). Null before start() and after a
  /// stop.
  caf::actor root() const;

  /// Phases of all components.
  status_board& status() noexcept;

  /// Metric families.
  metrics_registry& metrics() noexcept;

  /// True once every source listens.
  bool ready() const;

  /// Events and firings in flight (`ganglion_work_in_flight` on /metrics): events the bus
  /// accepted that a sensor has not judged yet, and firings not finished (retries and the
  /// dead-letter trigger included, parked ones for a restarting trigger too).
  /// docs/architecture.md, "Idle".
  std::int64_t in_flight() const noexcept;

  /// Waits up to `timeout` until in_flight() is 0: every event accepted so far has been judged
  /// by every sensor that listens to it, and every firing it caused has finished. True when it
  /// is; false on timeout. Events held in a join wait for their partner, not for the engine.
  bool wait_idle(std::chrono::milliseconds timeout) const;

  /// What `run` refused to start at the latest start or reload, and why (see
  /// check_runnability).
  std::vector<refusal> refusals() const;

  /// The recent verdicts of every dependency of `sensor` as JSON; nullopt for an unknown sensor.
  std::optional<std::string> explain(const std::string& sensor) const;

private:
  struct impl;
  /// Shared with a stop(listener) in progress, which may outlive the engine.
  std::shared_ptr<impl> impl_;
  /// Set by stop(listener): done once the engine is down.
  std::shared_ptr<engine_stop_signal> stopping_;
};

} // namespace ganglion::core
