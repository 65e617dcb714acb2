#include "trigger_actor.hpp"

#include <spdlog/spdlog.h>

#include "supervisor.hpp"

namespace ganglion::core {

trigger_state::~trigger_state() {
  // Work abandoned by a stopped or failed trigger no longer holds up shutdown.
  if (setup.work)
    setup.work->done(static_cast<std::int64_t>(waiting.size() + running.size()));
}

namespace {

void start_next(caf::stateful_actor<trigger_state>* self) {
  auto& st = self->state;
  while (!st.waiting.empty() && st.running.size() < st.setup.concurrency) {
    auto id = st.next_id++;
    auto& slot = st.running[id];
    slot.invocation = std::move(st.waiting.front().invocation);
    slot.started = std::chrono::steady_clock::now();
    st.waiting.pop_front();
    auto reply_to = caf::actor_cast<caf::actor>(self);
    st.executor->execute(slot.invocation, [reply_to, id](trigger_outcome outcome) {
      caf::anon_send(reply_to, fire_result{id, std::move(outcome)});
    });
  }
}

} // namespace

caf::behavior trigger_actor(caf::stateful_actor<trigger_state>* self, trigger_setup setup) {
  auto& st = self->state;
  st.setup = std::move(setup);
  auto& metrics = *st.setup.context.metrics;
  labels series{{"sensor", st.setup.sensor_name}, {"trigger", st.setup.trigger_name}};
  st.fired = &metrics.get_counter("ganglion_triggers_fired_total",
                                  "Trigger executions that succeeded", series);
  st.failed = &metrics.get_counter("ganglion_triggers_failed_total",
                                   "Trigger executions that failed", series);
  st.latency = &metrics.get_histogram("ganglion_trigger_duration_seconds",
                                      "Time from a trigger's firing to the end of its execution",
                                      series, latency_buckets());
  try {
    st.executor = st.setup.factory(st.setup.context);
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return {};
  }
  return {
    [=](fire_request& request) {
      self->state.waiting.push_back(std::move(request));
      start_next(self);
    },
    [=](fire_result& result) {
      auto& st = self->state;
      auto it = st.running.find(result.id);
      if (it == st.running.end())
        return;
      auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now()
                                                   - it->second.started)
                       .count();
      st.latency->observe(seconds);
      const auto& name = st.setup.trigger_name;
      if (result.outcome.ok) {
        st.fired->inc();
        spdlog::debug("trigger {}/{} succeeded: {}", st.setup.sensor_name, name,
                      result.outcome.detail);
      } else {
        st.failed->inc();
        spdlog::warn("trigger {}/{} failed: {}{}{}", st.setup.sensor_name, name,
                     result.outcome.error, result.outcome.detail.empty() ? "" : " — ",
                     result.outcome.detail);
      }
      st.running.erase(it);
      st.setup.work->done();
      start_next(self);
    },
  };
}

} // namespace ganglion::core
