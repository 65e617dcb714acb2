#include "sensor/sensor_actor.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "sensor/sensor_ownership.hpp"
#include "sensor/sensor_triggers.hpp"
#include "sensor/waiting_triggers.hpp"

namespace ganglion::core {

sensor_state::~sensor_state() {
  std::int64_t abandoned = 0;
  for (const auto& batch : backlog)
    abandoned += static_cast<std::int64_t>(batch.events.size());
  for (const auto& queue : parked)
    abandoned += static_cast<std::int64_t>(queue.size());
  if (setup.work)
    setup.work->done(abandoned);
}

namespace {

using sensor_ptr = caf::stateful_actor<sensor_state>*;

/// Runs (scripts, filter paths) cut off in a row that put the sensor in the Error phase.
constexpr std::uint64_t cut_offs_for_error = 3;

/// Error phase after `cut_offs_for_error` cut-offs in a row; Running again once a script or
/// filter path finishes within its budget. One log line per change, not per cut-off.
void report_cut_offs(sensor_ptr self) {
  auto& st = self->state;
  const auto in_a_row = st.core->consecutive_cut_offs();
  const auto& name = st.setup.manifest->metadata.name;
  if (!st.cut_off_error && in_a_row >= cut_offs_for_error) {
    st.cut_off_error = true;
    auto why = fmt::format("{} runs in a row cut off by their budget (a script's --script-budget, "
                           "a filter path's evaluation budget); latest: {}",
                           in_a_row, st.core->last_cut_off());
    st.setup.status->set("sensor", name, phase::error, why);
    spdlog::warn("sensor {}: {}", name, why);
  } else if (st.cut_off_error && in_a_row == 0) {
    st.cut_off_error = false;
    st.setup.status->set("sensor", name, phase::running);
    spdlog::info("sensor {}: its scripts and filter paths finish within their budget again", name);
  }
}

/// Runs the matching core on `e` and hands its firings to the triggers.
void process(sensor_ptr self, const event_ptr& e, std::chrono::system_clock::time_point now) {
  auto& st = self->state;
  st.core->process(e, st.scratch, &st.verdicts);
  if (st.cut_off_error || st.core->consecutive_cut_offs() >= cut_offs_for_error)
    report_cut_offs(self);
  bool joined = false;
  for (const auto& v : st.verdicts) {
    st.setup.explain->record(st.core->dependencies()[v.dependency].name, now, e->id, v.pass,
                             v.kind, v.reason);
    joined = joined || v.pass;
  }
  st.verdicts.clear();
  if (joined && st.joins)
    publish_waiting(st.setup.explain.get(), *st.core);
  st.setup.work->add(static_cast<std::int64_t>(st.scratch.size()));
  for (auto& f : st.scratch)
    sensor_triggers::deliver(self, f.trigger, fire_request{std::move(f.invocation), nullptr});
  st.scratch.clear();
}

/// Longest a sensor works off its backlog before it lets the other actors of its thread run
/// (and sees a shutdown); checked every `events_per_check` events.
constexpr auto slice = std::chrono::milliseconds{5};
constexpr std::size_t events_per_check = 4;

void commit(sensor_ptr self, bool active);

/// Processes delivered events in order until the backlog is empty or the slice is spent; then
/// queues a pump to itself behind whatever else waits in its mailbox.
void work_off(sensor_ptr self) {
  auto& st = self->state;
  if (st.setup.remote && !st.owned) {
    // Ownership went away while events waited: not acknowledged, the new owner gets them.
    for (const auto& batch : st.backlog)
      st.setup.work->done(static_cast<std::int64_t>(batch.events.size()));
    st.backlog.clear();
    st.backlog_next = 0;
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto now = std::chrono::system_clock::now(); // one timestamp per slice
  std::size_t processed = 0;
  while (!st.backlog.empty()) {
    auto& batch = st.backlog.front();
    while (st.backlog_next < batch.events.size()) {
      const auto& e = batch.events[st.backlog_next++];
      if (!st.ledger) {
        process(self, e, now);
      } else if (auto admitted = st.ledger->admit(e)) {
        process(self, admitted, now);
      }
      if (++processed % events_per_check == 0 && st.backlog_next < batch.events.size()
          && std::chrono::steady_clock::now() - start >= slice) {
        if (st.ledger)
          commit(self, true);
        self->send(self, pump_atom::value);
        return;
      }
    }
    st.setup.work->done(static_cast<std::int64_t>(batch.events.size()));
    st.backlog.pop_front();
    st.backlog_next = 0;
  }
  if (st.ledger)
    commit(self, true);
}

/// Journals what finished; while events are unfinished, looks again — soon while events
/// arrive or finish, less and less often while nothing changes.
void commit(sensor_ptr self, bool active) {
  using namespace std::chrono_literals;
  auto& st = self->state;
  auto finished = st.ledger->commit();
  st.commit_delay = active || finished > 0 ? 1ms : std::min<std::chrono::milliseconds>(
                                                      st.commit_delay * 2, 1000ms);
  if (st.ledger->unfinished() == 0)
    return;
  auto now = std::chrono::steady_clock::now();
  auto due = now + st.commit_delay;
  if (st.next_commit > now && st.next_commit <= due)
    return; // a tick comes soon enough
  st.next_commit = due;
  self->delayed_send(self, st.commit_delay, commit_atom::value);
}

bool same_part(const sensor_setup& a, const sensor_setup& b, const std::string& key) {
  auto x = a.fingerprints.find(key);
  auto y = b.fingerprints.find(key);
  return x != a.fingerprints.end() && y != b.fingerprints.end() && x->second == y->second;
}

/// The core the engine compiled for `setup`, or a new one (a restart, or no engine).
std::unique_ptr<sensor_core> compiled_core(const sensor_setup& setup) {
  if (auto core = setup.core ? setup.core->take() : nullptr)
    return core;
  return std::make_unique<sensor_core>(*setup.manifest, setup.metrics, setup.matching);
}

/// Hot reload: the new manifest's matching core takes over with the join state of every
/// unchanged dependency and the dedup window; routes change without a gap; only changed
/// triggers restart.
void reconfigure(sensor_ptr self, const sensor_setup& next) {
  auto& st = self->state;
  const auto& name = st.setup.manifest->metadata.name;
  std::unique_ptr<sensor_core> core;
  try {
    core = compiled_core(next);
  } catch (const std::exception& ex) {
    spdlog::error("sensor {}: the reloaded manifest cannot run ({}); the previous one keeps "
                  "running",
                  name, ex.what());
    return;
  }
  core->dedup() = std::move(st.core->dedup());
  std::size_t carried = 0;
  std::size_t dropped = 0;
  for (auto& held : st.core->held()) {
    if (same_part(st.setup, next, "dependency/" + held.dependency)
        && core->hold(held.trigger, held.dependency, held.event))
      ++carried;
    else
      ++dropped;
  }
  auto before = st.core->subscriptions();
  auto after = core->subscriptions();
  bool resubscribe = st.setup.remote && after != before;
  auto handle = caf::actor_cast<caf::actor>(self);
  for (const auto& [source, subject] : after)
    st.setup.bus->subscribe(source, subject, handle);
  for (const auto& pair : before)
    if (std::find(after.begin(), after.end(), pair) == after.end())
      st.setup.bus->unsubscribe(pair.first, pair.second, self->address());
  auto previous = st.setup;
  st.retired.push_back(previous.manifest);
  st.core = std::move(core);
  st.setup = next;
  st.setup.durable = previous.durable;
  st.setup.explain = previous.explain;
  st.joins = has_joins(*st.core);
  publish_waiting(st.setup.explain.get(), *st.core);
  ++st.generation;
  sensor_triggers::start_reset_clocks(self);
  sensor_triggers::reconcile(self, previous);
  if (resubscribe)
    sensor_ownership::resubscribe(self);
  spdlog::info("sensor {} reloaded: {} stored join event(s) kept, {} dropped with their changed "
               "dependency",
               name, carried, dropped);
}

/// While its triggers go down: events are neither matched nor acknowledged (a durable bus
/// delivers them again), firings are not made, the rest is ignored.
caf::behavior stopping_behavior(sensor_ptr self) {
  self->set_default_handler(caf::drop);
  return {
    [=](event_batch& batch) {
      take_units(batch.ticket);
      self->state.setup.work->done(static_cast<std::int64_t>(batch.events.size()));
    },
  };
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
    st.core = compiled_core(st.setup);
    st.joins = has_joins(*st.core);
    sensor_triggers::start_reset_clocks(self);
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
  // On shutdown the sensor outlives its triggers, which write the engine's metrics and status:
  // the engine's end waits for theirs. Once it quits its state is gone: `gone` lets the queued
  // messages of linked triggers pass.
  auto gone = std::make_shared<bool>(false);
  self->set_down_handler([self, gone](caf::down_msg& msg) {
    if (*gone)
      return;
    auto& st = self->state;
    st.children->handle_down(msg);
    if (st.stopping && st.children->alive() == 0) {
      *gone = true;
      self->quit(*st.stopping);
    }
  });
  self->set_exit_handler([self, gone](caf::exit_msg& msg) {
    // A failing trigger is handled by its down message; anything else stops the sensor.
    auto& st = self->state;
    if (*gone || st.stopping)
      return;
    if (msg.reason == caf::exit_reason::user_shutdown || !msg.reason) {
      // Triggers still executing keep their events unfinished in this last commit.
      if (st.ledger)
        st.ledger->commit(true);
      st.children->stop_all();
      st.stopping = msg.reason;
      if (st.children->alive() == 0) {
        *gone = true;
        self->quit(msg.reason);
      } else {
        self->become(stopping_behavior(self));
      }
    }
  });
  sensor_triggers::start(self);
  if (st.setup.remote) {
    sensor_ownership::watch(self);
    spdlog::info("sensor {} waits for this replica to own it", name);
  } else if (st.setup.durable) {
    try {
      st.ledger = std::make_unique<sensor_ledger>(name, *st.setup.durable);
      auto now = std::chrono::system_clock::now();
      st.ledger->recover(st.core->dedup(), [&](const event_ptr& e) { process(self, e, now); });
    } catch (const std::exception& ex) {
      self->state.children->stop_all();
      self->quit(component_failure(std::string{"cannot recover its stored state: "} + ex.what()));
      return {};
    }
  }
  if (!st.setup.remote) {
    st.setup.status->set("sensor", name, phase::running);
    spdlog::info("sensor {} is running", name);
  }
  return {
    [=](event_batch& batch) {
      take_units(batch.ticket);
      auto& st = self->state;
      if (st.setup.remote && !st.owned) {
        // Delivered before a hand-over; not acknowledged, so the new owner gets them.
        st.setup.work->done(static_cast<std::int64_t>(batch.events.size()));
        return;
      }
      st.received->inc(batch.events.size());
      bool idle = st.backlog.empty();
      st.backlog.push_back(std::move(batch));
      if (idle)
        work_off(self);
    },
    [=](pump_atom) { work_off(self); },
    [=](commit_atom) {
      if (self->state.ledger)
        commit(self, false);
    },
    [=](owner_atom, bool owned) {
      auto now = std::chrono::system_clock::now();
      sensor_ownership::on_change(self, owned, [&](const event_ptr& e) { process(self, e, now); });
      if (self->state.ledger)
        commit(self, true);
    },
    [=](reconfigure_sensor& msg) { reconfigure(self, *msg.setup); },
    [=](ready_atom) { sensor_triggers::on_ready(self, self->current_sender()); },
    [=](restart_atom, std::uint64_t index) {
      self->state.children->handle_restart(static_cast<std::size_t>(index));
    },
    [=](reset_atom, std::uint64_t generation, std::uint64_t trigger, std::uint64_t entry) {
      sensor_triggers::on_reset(self, generation, trigger, entry);
    },
  };
}

} // namespace ganglion::core
