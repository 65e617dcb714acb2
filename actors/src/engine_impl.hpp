#pragma once

// The engine's private state, shared by engine.cpp (start, stop) and engine_reload.cpp.

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "embedded_bus.hpp"
#include "engine_root.hpp"
#include "explain_log.hpp"
#include "ganglion/core/engine.hpp"
#include "trigger_actor.hpp"
#include "work_tracker.hpp"

namespace ganglion::core {

struct engine::impl {
  engine_options options;
  source_registry sources;
  trigger_registry triggers;
  status_board status;
  metrics_registry metrics;
  std::shared_ptr<work_tracker> work = std::make_shared<work_tracker>();
  std::shared_ptr<const secret_store> secrets;
  caf::actor_system_config config;
  std::unique_ptr<caf::actor_system> system;
  std::shared_ptr<embedded_bus> bus;
  caf::actor root;
  std::vector<std::shared_ptr<const dsl::event_source>> event_sources;
  std::map<std::string, std::shared_ptr<explain_log>> explain_logs;
  bool started = false;
  bool stopped = false;
  /// Set once every component is registered in `status`, so that readiness is not judged on
  /// a half-built plan.
  std::atomic<bool> planned{false};

  supervision_policy policy() const {
    return {options.max_failures, options.failure_window, options.initial_backoff,
            options.max_backoff};
  }

  void plan_sources(const dsl::event_source& es, root_plan& plan);
  void plan_sensor(const dsl::sensor& sensor, root_plan& plan,
                   const std::set<std::pair<std::string, std::string>>& provided);
  std::optional<trigger_setup> plan_trigger(const dsl::sensor& sensor, const dsl::trigger& t);
};

} // namespace ganglion::core
