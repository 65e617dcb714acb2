#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>

#include <caf/all.hpp>

#include "ganglion/core/internal/log_throttle.hpp"
#include "trigger/delivery_policy.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/status.hpp"
#include "ganglion/core/trigger.hpp"
#include "runtime/messages.hpp"
#include "runtime/work_tracker.hpp"

namespace ganglion::core {

/// How to create an executor for one action (the trigger's own, or its dead-letter trigger's).
struct executor_setup {
  trigger_factory factory;
  trigger_context context;
};

/// Everything a trigger actor needs to start.
struct trigger_setup {
  std::string sensor_name;
  std::string trigger_name;
  trigger_factory factory;
  trigger_context context;
  /// The `dlqTrigger`, run after the trigger's last attempt failed.
  std::optional<executor_setup> dead_letter;
  std::size_t concurrency = 64;
  std::shared_ptr<work_tracker> work;
  /// Told `ready_atom` once the executors exist (firings sent before could die with an actor
  /// that fails to start).
  caf::actor_addr parent;
  /// Where the trigger's executions are shown (/v1/status); null: nowhere.
  status_board* status = nullptr;
  /// Owns what `context.manifest` and `dead_letter` point into (the sensor's manifest): the
  /// actor may start after its sensor has stopped and released its own copy.
  std::shared_ptr<const void> manifest_owner;
};

/// State of a trigger actor: its executors, the firings waiting and those executing.
struct trigger_state {
  /// One firing being executed (possibly between attempts, possibly by the DLQ trigger).
  struct execution {
    trigger_invocation invocation;
    std::shared_ptr<unfinished_events> unfinished;
    std::chrono::steady_clock::time_point fired;
    std::uint32_t attempt = 0;
    bool dead_letter = false;
  };
  trigger_setup setup;
  std::unique_ptr<trigger_executor> executor;
  std::unique_ptr<trigger_executor> dead_letter_executor;
  std::optional<retry_schedule> retries;
  std::optional<retry_schedule> dead_letter_retries;
  std::optional<rate_gate> gate;
  bool gate_wakeup_pending = false;
  std::deque<fire_request> waiting;
  std::unordered_map<std::uint64_t, execution> running;
  std::uint64_t next_id = 1;
  std::minstd_rand random{std::random_device{}()};
  counter* fired = nullptr;
  counter* failed = nullptr;
  counter* retried = nullptr;
  counter* dead_lettered = nullptr;
  counter* dead_letter_failed = nullptr;
  histogram* latency = nullptr;
  /// Retries and failures each log at most one line per interval: a target that is down
  /// under load must not fill the disk.
  log_throttle retry_log{std::chrono::seconds(5)};
  log_throttle failure_log{std::chrono::seconds(5)};
  /// The trigger's entry of the status board (its executions); null without a board.
  std::shared_ptr<execution_record> executions;
  /// Firings waiting or executing, as the gauge ganglion_trigger_executions_in_flight reads it.
  std::shared_ptr<std::atomic<std::int64_t>> in_flight =
    std::make_shared<std::atomic<std::int64_t>>(0);

  ~trigger_state();
  static inline const char* name = "ganglion.trigger";
};

/// One actor per trigger: admits firings through the rate limit, runs up to `concurrency`
/// executions at once, retries failures per `retryStrategy`, hands the last failure to the
/// dead-letter trigger, and records every outcome in metrics and the log.
caf::behavior trigger_actor(caf::stateful_actor<trigger_state>* self, trigger_setup setup);

} // namespace ganglion::core
