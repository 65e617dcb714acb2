#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

#include <caf/all.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/trigger.hpp"
#include "messages.hpp"
#include "work_tracker.hpp"

namespace ganglion::core {

/// Everything a trigger actor needs to start.
struct trigger_setup {
  std::string sensor_name;
  std::string trigger_name;
  trigger_factory factory;
  trigger_context context;
  std::size_t concurrency = 64;
  std::shared_ptr<work_tracker> work;
};

/// State of a trigger actor: its executor, the firings waiting and those executing.
struct trigger_state {
  struct in_flight {
    trigger_invocation invocation;
    std::chrono::steady_clock::time_point started;
  };
  trigger_setup setup;
  std::unique_ptr<trigger_executor> executor;
  std::deque<fire_request> waiting;
  std::unordered_map<std::uint64_t, in_flight> running;
  std::uint64_t next_id = 1;
  counter* fired = nullptr;
  counter* failed = nullptr;
  histogram* latency = nullptr;

  ~trigger_state();
  static inline const char* name = "ganglion.trigger";
};

/// One actor per trigger: runs up to `concurrency` executions at once, queues the rest, and
/// records every outcome in metrics and the log.
caf::behavior trigger_actor(caf::stateful_actor<trigger_state>* self, trigger_setup setup);

} // namespace ganglion::core
