#include "sensor_actor.hpp"

#include <spdlog/spdlog.h>

namespace ganglion::core {

sensor_state::~sensor_state() {
  std::int64_t abandoned = 0;
  for (const auto& queue : parked)
    abandoned += static_cast<std::int64_t>(queue.size());
  if (setup.work)
    setup.work->done(abandoned);
}

namespace {

using sensor_ptr = caf::stateful_actor<sensor_state>*;

std::string trigger_status_name(sensor_ptr self, std::size_t i) {
  return self->state.setup.manifest->metadata.name + "/"
         + self->state.setup.manifest->spec.triggers[i].template_.name;
}

void drop(sensor_ptr self, std::size_t i, std::size_t count) {
  auto& st = self->state;
  st.dropped->inc(count);
  st.setup.work->done(static_cast<std::int64_t>(count));
  spdlog::error("trigger {} is in phase Error: {} firing(s) not executed",
                trigger_status_name(self, i), count);
}

void deliver(sensor_ptr self, std::size_t i, fire_request request) {
  auto& st = self->state;
  if (st.dead[i]) {
    drop(self, i, 1);
    return;
  }
  const auto& handle = st.children->child(st.child_index[i]);
  if (handle)
    self->send(handle, std::move(request));
  else
    st.parked[i].push_back(std::move(request));
}

void schedule_reset(sensor_ptr self, std::uint64_t trigger, std::uint64_t entry) {
  auto now = std::chrono::system_clock::now();
  auto at = self->state.reset_clocks[trigger][entry].next(now);
  if (!at)
    return;
  self->delayed_send(self, *at - now, reset_atom::value, trigger, entry);
}

void start_reset_clocks(sensor_ptr self) {
  auto& st = self->state;
  const auto& triggers = st.setup.manifest->spec.triggers;
  st.reset_clocks.resize(triggers.size());
  for (std::size_t t = 0; t < triggers.size(); ++t) {
    for (const auto& spec : triggers[t].template_.conditions_reset_)
      st.reset_clocks[t].emplace_back(spec);
    for (std::size_t r = 0; r < st.reset_clocks[t].size(); ++r)
      schedule_reset(self, t, r);
  }
}

void start_triggers(sensor_ptr self) {
  auto& st = self->state;
  auto n = st.setup.manifest->spec.triggers.size();
  st.child_index.assign(n, 0);
  st.parked.resize(n);
  st.dead.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (!st.setup.triggers[i]) {
      st.dead[i] = true;
      continue;
    }
    child_spec spec;
    spec.kind = "trigger";
    spec.name = trigger_status_name(self, i);
    spec.spawn = [setup = *st.setup.triggers[i]](caf::local_actor* parent) {
      return parent->spawn<caf::linked>(trigger_actor, setup);
    };
    spec.on_started = [self, i](const caf::actor& handle) {
      auto& st = self->state;
      st.setup.status->set("trigger", trigger_status_name(self, i), phase::running);
      while (!st.parked[i].empty()) {
        self->send(handle, std::move(st.parked[i].front()));
        st.parked[i].pop_front();
      }
    };
    spec.on_given_up = [self, i] {
      auto& st = self->state;
      st.dead[i] = true;
      if (!st.parked[i].empty())
        drop(self, i, st.parked[i].size());
      st.parked[i].clear();
    };
    st.child_index[i] = st.children->add(std::move(spec));
  }
}

} // namespace

caf::behavior sensor_actor(caf::stateful_actor<sensor_state>* self, sensor_setup setup) {
  auto& st = self->state;
  st.setup = std::move(setup);
  const auto& name = st.setup.manifest->metadata.name;
  // The engine routes events here from the moment of spawn; however this actor ends, the
  // route goes with it.
  self->attach_functor([bus = st.setup.bus, addr = self->address()] { bus->unsubscribe(addr); });
  try {
    st.core = std::make_unique<sensor_core>(*st.setup.manifest, st.setup.metrics,
                                            st.setup.matching);
    start_reset_clocks(self);
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return {};
  }
  st.received = &st.setup.metrics->get_counter(
    "ganglion_sensor_events_total", "Events delivered to a sensor", {{"sensor", name}});
  st.dropped = &st.setup.metrics->get_counter(
    "ganglion_triggers_dropped_total", "Firings not executed because their trigger is in Error",
    {{"sensor", name}});
  st.children = std::make_unique<child_supervisor>(self, *st.setup.status, st.setup.policy);
  self->set_down_handler([self](caf::down_msg& msg) { self->state.children->handle_down(msg); });
  self->set_exit_handler([self](caf::exit_msg& msg) {
    // A failing trigger is handled by its down message; anything else stops the sensor.
    if (msg.reason == caf::exit_reason::user_shutdown || !msg.reason) {
      self->state.children->stop_all();
      self->quit(msg.reason);
    }
  });
  start_triggers(self);
  st.setup.status->set("sensor", name, phase::running);
  spdlog::info("sensor {} is running", name);
  return {
    [=](event_batch& batch) {
      auto& st = self->state;
      st.received->inc(batch.events.size());
      auto now = std::chrono::system_clock::now(); // one timestamp per batch
      for (const auto& e : batch.events) {
        st.core->process(e, st.scratch, &st.verdicts);
        for (const auto& v : st.verdicts)
          st.setup.explain->record(st.core->dependencies()[v.dependency].name, now, e->id,
                                   v.pass, v.kind, v.reason);
        st.verdicts.clear();
      }
      st.setup.work->add(static_cast<std::int64_t>(st.scratch.size()));
      st.setup.work->done(static_cast<std::int64_t>(batch.events.size()));
      for (auto& f : st.scratch)
        deliver(self, f.trigger, fire_request{std::move(f.invocation)});
      st.scratch.clear();
    },
    [=](restart_atom, std::uint64_t index) {
      self->state.children->handle_restart(static_cast<std::size_t>(index));
    },
    [=](reset_atom, std::uint64_t trigger, std::uint64_t entry) {
      self->state.core->reset_trigger(trigger);
      spdlog::info("trigger {}: conditionsReset cleared its stored events",
                   trigger_status_name(self, trigger));
      schedule_reset(self, trigger, entry);
    },
  };
}

} // namespace ganglion::core
