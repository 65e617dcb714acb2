#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/status.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// Engine settings (the `run` command line maps onto these).
struct engine_options {
  std::string secrets_dir;
  std::string data_dir;
  /// Events alive in the engine at once (queued, held in joins or in triggers) before sources
  /// are refused with back-pressure.
  std::size_t bus_capacity = 65536;
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
  /// Actor scheduler threads (0: one per core but one, at least one — the transport threads
  /// that receive events need a core too; on 2 cores this measured 15% more webhook events/s).
  std::size_t scheduler_threads = 0;
  /// A sensor skips an event whose id it processed within this window (0: never).
  std::chrono::milliseconds dedup_window{300000};
};

/// The running engine: the actor system, the supervised tree of sources, bus, sensors and
/// triggers built from manifests, and the state that admin endpoints read.
class engine {
public:
  engine(engine_options options, source_registry sources, trigger_registry triggers);
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Builds and starts the actor tree for `documents` (already validated). Components that
  /// cannot run (unsupported types) are reported in status as Error; the rest run.
  void start(const std::vector<dsl::document>& documents);

  /// Stops accepting events, waits up to shutdown_grace for in-flight triggers, stops all.
  void stop();

  /// Phases of all components.
  status_board& status() noexcept;

  /// Metric families.
  metrics_registry& metrics() noexcept;

  /// True once every source listens.
  bool ready() const;

  /// The recent verdicts of every dependency of `sensor` as JSON; nullopt for an unknown sensor.
  std::optional<std::string> explain(const std::string& sensor) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::core
