#include "trigger/trigger_actor.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

#include "ganglion/core/parameter_step.hpp"
#include "runtime/unfinished_events.hpp"
#include "runtime/supervisor.hpp"

namespace ganglion::core {

trigger_state::~trigger_state() {
  in_flight->store(0, std::memory_order_relaxed);
  // Work abandoned by a stopped or failed trigger no longer holds up shutdown; on the durable
  // bus its events stay unfinished, to be delivered again at the next start.
  if (setup.work)
    setup.work->done(static_cast<std::int64_t>(waiting.size() + running.size()));
  for (const auto& request : waiting)
    if (request.unfinished)
      request.unfinished->keep(request.invocation.events);
  for (const auto& [id, run] : running)
    if (run.unfinished)
      run.unfinished->keep(run.invocation.events);
}

namespace {

using trigger_ptr = caf::stateful_actor<trigger_state>*;

void launch(trigger_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto& run = st.running.at(id);
  auto& executor = run.dead_letter ? *st.dead_letter_executor : *st.executor;
  auto reply_to = caf::actor_cast<caf::actor>(self);
  executor.execute(run.invocation, [reply_to, id](trigger_outcome outcome) {
    caf::anon_send(reply_to, fire_result{id, std::move(outcome)});
  });
}

void pump(trigger_ptr self) {
  auto& st = self->state;
  while (!st.waiting.empty() && st.running.size() < st.setup.concurrency) {
    if (auto wait = st.gate->try_admit(std::chrono::steady_clock::now())) {
      if (!st.gate_wakeup_pending) {
        st.gate_wakeup_pending = true;
        self->delayed_send(self, *wait, pump_atom::value);
      }
      break;
    }
    auto id = st.next_id++;
    auto& run = st.running[id];
    run.invocation = std::move(st.waiting.front().invocation);
    run.unfinished = std::move(st.waiting.front().unfinished);
    run.fired = std::chrono::steady_clock::now();
    st.waiting.pop_front();
    launch(self, id);
  }
  st.in_flight->store(static_cast<std::int64_t>(st.waiting.size() + st.running.size()),
                      std::memory_order_relaxed);
}

void finish(trigger_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto it = st.running.find(id);
  st.latency->observe(
    std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.fired).count());
  st.running.erase(it);
  st.setup.work->done();
  pump(self);
}

void on_result(trigger_ptr self, fire_result& result) {
  auto& st = self->state;
  auto it = st.running.find(result.id);
  if (it == st.running.end())
    return;
  auto& run = it->second;
  const auto& who = st.setup.sensor_name + "/" + st.setup.trigger_name;
  const auto& outcome = result.outcome;
  if (st.executions && !run.dead_letter)
    st.executions->record({std::chrono::system_clock::now(), outcome.ok, outcome.error,
                           outcome.detail, outcome.result});
  if (outcome.ok) {
    (run.dead_letter ? st.dead_lettered : st.fired)->inc();
    spdlog::debug("trigger {}{} succeeded: {}", who, run.dead_letter ? " (dead-letter)" : "",
                  outcome.detail);
    finish(self, result.id);
    return;
  }
  auto error = outcome.detail.empty() ? outcome.error : outcome.error + " (" + outcome.detail + ")";
  const auto& schedule = run.dead_letter ? *st.dead_letter_retries : *st.retries;
  if (run.attempt + 1 < schedule.attempts()) {
    std::uniform_real_distribution<double> unit{0.0, 1.0};
    auto wait = schedule.delay(run.attempt, unit(st.random));
    ++run.attempt;
    st.retried->inc();
    std::uint64_t held_back = 0;
    if (st.retry_log.allow(held_back))
      spdlog::warn("trigger {}{} attempt {} of {} failed: {}; retrying in {} ms{}", who,
                   run.dead_letter ? " (dead-letter)" : "", run.attempt, schedule.attempts(),
                   error, std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(),
                   held_back_note(held_back, "retry lines"));
    self->delayed_send(self, wait, retry_atom::value, result.id);
    return;
  }
  if (run.dead_letter) {
    st.dead_letter_failed->inc();
    std::uint64_t held_back = 0;
    if (st.failure_log.allow(held_back))
      spdlog::error("trigger {}: dead-letter trigger failed after {} attempt(s): {}{}", who,
                    schedule.attempts(), error, held_back_note(held_back, "failure lines"));
    finish(self, result.id);
    return;
  }
  st.failed->inc();
  const char* next = st.dead_letter_executor ? "; running its dead-letter trigger"
                     : run.unfinished ? "; its events stay unfinished and are delivered again "
                                        "at the next start (add a dlqTrigger to handle failures)"
                                      : "";
  std::uint64_t held_back = 0;
  if (st.failure_log.allow(held_back))
    spdlog::error("trigger {} failed after {} attempt(s): {}{}{}", who, schedule.attempts(),
                  error, next, held_back_note(held_back, "failure lines"));
  if (!st.dead_letter_executor) {
    if (run.unfinished)
      run.unfinished->keep(run.invocation.events);
    finish(self, result.id);
    return;
  }
  run.dead_letter = true;
  run.attempt = 0;
  launch(self, result.id);
}

void register_metrics(trigger_state& st) {
  auto& metrics = *st.setup.context.metrics;
  labels series{{"sensor", st.setup.sensor_name}, {"trigger", st.setup.trigger_name}};
  st.fired = &metrics.get_counter("ganglion_triggers_fired_total",
                                  "Trigger executions that succeeded", series);
  st.failed = &metrics.get_counter("ganglion_triggers_failed_total",
                                   "Trigger executions that failed after their last attempt",
                                   series);
  st.retried = &metrics.get_counter("ganglion_triggers_retries_total",
                                    "Trigger attempts that failed and were retried", series);
  auto dlq = [&](const char* result) {
    auto s = series;
    s.emplace_back("result", result);
    return s;
  };
  const char* dlq_help = "Dead-letter trigger executions after a trigger's last failure";
  st.dead_lettered =
    &metrics.get_counter("ganglion_triggers_dead_letter_total", dlq_help, dlq("success"));
  st.dead_letter_failed =
    &metrics.get_counter("ganglion_triggers_dead_letter_total", dlq_help, dlq("failure"));
  metrics.set_gauge("ganglion_trigger_executions_in_flight",
                    "Firings a trigger has taken and not finished (waiting for its rate limit or "
                    "concurrency, executing, between retries, or in its dead-letter trigger)",
                    series, [in_flight = st.in_flight] { return in_flight->load(); });
  st.latency = &metrics.get_histogram("ganglion_trigger_duration_seconds",
                                      "Time from a trigger's firing to the end of its execution "
                                      "(retries and dead-letter trigger included)",
                                      series, latency_buckets());
}

} // namespace

caf::behavior trigger_actor(caf::stateful_actor<trigger_state>* self, trigger_setup setup) {
  auto& st = self->state;
  st.setup = std::move(setup);
  register_metrics(st);
  if (st.setup.status)
    st.executions =
      st.setup.status->executions("trigger", st.setup.sensor_name + "/" + st.setup.trigger_name);
  const auto& manifest = *st.setup.context.manifest;
  st.retries.emplace(manifest.retry_strategy);
  st.gate.emplace(rate_gate::from(manifest.rate_limit_));
  try {
    st.executor = create_trigger_executor(st.setup.factory, st.setup.context);
    st.setup.concurrency = std::max(st.setup.concurrency, st.executor->max_concurrency());
    if (st.setup.dead_letter) {
      st.dead_letter_executor =
        create_trigger_executor(st.setup.dead_letter->factory, st.setup.dead_letter->context);
      st.dead_letter_retries.emplace(st.setup.dead_letter->context.manifest->retry_strategy);
    }
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return {};
  }
  if (auto parent = caf::actor_cast<caf::actor>(st.setup.parent))
    self->send(parent, ready_atom::value);
  return {
    [=](fire_request& request) {
      take_units(request.ticket);
      self->state.waiting.push_back(std::move(request));
      pump(self);
    },
    [=](fire_result& result) { on_result(self, result); },
    [=](retry_atom, std::uint64_t id) {
      if (self->state.running.count(id))
        launch(self, id);
    },
    [=](pump_atom) {
      self->state.gate_wakeup_pending = false;
      pump(self);
    },
  };
}

} // namespace ganglion::core
