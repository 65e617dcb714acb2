#include "sensor/sensor_triggers.hpp"
#include "sensor/waiting_triggers.hpp"

#include <spdlog/spdlog.h>

namespace ganglion::core::sensor_triggers {

namespace {

std::optional<std::size_t> index_of(sensor_ptr self, const std::string& trigger) {
  const auto& triggers = self->state.setup.manifest->spec.triggers;
  for (std::size_t i = 0; i < triggers.size(); ++i)
    if (triggers[i].template_.name == trigger)
      return i;
  return std::nullopt;
}

void drop(sensor_ptr self, const std::string& who, std::size_t count) {
  auto& st = self->state;
  st.dropped->inc(count);
  st.setup.work->done(static_cast<std::int64_t>(count));
  spdlog::error("trigger {} is in phase Error or was removed: {} firing(s) not executed", who,
                count);
}

/// The child spec of trigger `i`. Its callbacks find the trigger by name, as a reload may
/// move it to another index.
child_spec spec_of(sensor_ptr self, std::size_t i) {
  child_spec spec;
  spec.kind = "trigger";
  spec.name = status_name(self, i);
  spec.spawn = [setup = *self->state.setup.triggers[i],
                manifest = self->state.setup.manifest](caf::local_actor* parent) mutable {
    setup.parent = parent->address();
    setup.manifest_owner = manifest;
    return parent->spawn<caf::linked>(trigger_actor, setup);
  };
  auto trigger = self->state.setup.manifest->spec.triggers[i].template_.name;
  spec.on_started = [self, trigger, who = spec.name](const caf::actor&) {
    // Running once its executor is built (ready_atom); until then its firings park.
    auto& st = self->state;
    st.setup.status->set("trigger", who, phase::pending);
    if (auto j = index_of(self, trigger))
      st.ready[*j] = false;
  };
  spec.on_given_up = [self, trigger, who = spec.name] {
    auto& st = self->state;
    auto j = index_of(self, trigger);
    if (!j)
      return;
    st.dead[*j] = true;
    if (!st.parked[*j].empty())
      drop(self, who, st.parked[*j].size());
    st.parked[*j].clear();
  };
  return spec;
}

std::string fingerprint(const sensor_setup& setup, const std::string& key) {
  auto found = setup.fingerprints.find(key);
  return found == setup.fingerprints.end() ? std::string{} : found->second;
}

void schedule_reset(sensor_ptr self, std::uint64_t trigger, std::uint64_t entry) {
  auto now = std::chrono::system_clock::now();
  auto at = self->state.reset_clocks[trigger][entry].next(now);
  if (!at)
    return;
  self->delayed_send(self, *at - now, reset_atom::value, self->state.generation, trigger, entry);
}

} // namespace

std::string status_name(sensor_ptr self, std::size_t i) {
  return self->state.setup.manifest->metadata.name + "/"
         + self->state.setup.manifest->spec.triggers[i].template_.name;
}

void start(sensor_ptr self) {
  auto& st = self->state;
  auto n = st.setup.manifest->spec.triggers.size();
  st.child_index.assign(n, 0);
  st.parked.resize(n);
  st.dead.assign(n, false);
  st.ready.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (!st.setup.triggers[i])
      st.dead[i] = true;
    else
      st.child_index[i] = st.children->add(spec_of(self, i));
  }
}

void deliver(sensor_ptr self, std::size_t i, fire_request request) {
  auto& st = self->state;
  if (st.ledger) {
    // An atLeastOnce trigger holds its events unfinished until it is done with them; any
    // other trigger's events are finished on receipt.
    if (st.setup.manifest->spec.triggers[i].at_least_once)
      request.unfinished = st.ledger->kept();
    else
      st.ledger->release(request.invocation.events);
  }
  if (st.dead[i]) {
    drop(self, status_name(self, i), 1);
    return;
  }
  const auto& handle = st.children->child(st.child_index[i]);
  if (handle && st.ready[i]) {
    request.ticket = std::make_shared<work_ticket>(st.setup.work, 1);
    self->send(handle, std::move(request));
  } else
    st.parked[i].push_back(std::move(request));
}

void on_ready(sensor_ptr self, const caf::strong_actor_ptr& sender) {
  auto& st = self->state;
  for (std::size_t j = 0; j < st.child_index.size(); ++j) {
    if (st.dead[j])
      continue;
    const auto& handle = st.children->child(st.child_index[j]);
    if (!handle || handle.address() != caf::actor_cast<caf::actor_addr>(sender))
      continue;
    st.ready[j] = true;
    st.setup.status->set("trigger", status_name(self, j), phase::running);
    while (!st.parked[j].empty()) {
      auto& request = st.parked[j].front();
      request.ticket = std::make_shared<work_ticket>(st.setup.work, 1);
      self->send(handle, std::move(request));
      st.parked[j].pop_front();
    }
    return;
  }
}

void start_reset_clocks(sensor_ptr self) {
  auto& st = self->state;
  const auto& triggers = st.setup.manifest->spec.triggers;
  st.reset_clocks.clear();
  st.reset_clocks.resize(triggers.size());
  for (std::size_t t = 0; t < triggers.size(); ++t) {
    for (const auto& spec : triggers[t].template_.conditions_reset_)
      st.reset_clocks[t].emplace_back(spec);
    for (std::size_t r = 0; r < st.reset_clocks[t].size(); ++r)
      schedule_reset(self, t, r);
  }
}

void on_reset(sensor_ptr self, std::uint64_t generation, std::uint64_t trigger,
              std::uint64_t entry) {
  if (generation != self->state.generation)
    return;
  self->state.core->reset_trigger(trigger);
  publish_waiting(self->state.setup.explain.get(), *self->state.core);
  spdlog::info("trigger {}: conditionsReset cleared its stored events", status_name(self, trigger));
  schedule_reset(self, trigger, entry);
}

void reconcile(sensor_ptr self, const sensor_setup& previous) {
  auto& st = self->state;
  const auto& now = st.setup.manifest->spec.triggers;
  const auto& before = previous.manifest->spec.triggers;
  auto n = now.size();
  // First the per-trigger bookkeeping moves to the new order, so that a trigger started below
  // (whose on_started runs at once and looks itself up by name) finds its own slot.
  enum class step { none, keep, replace, add };
  std::vector<step> steps(n, step::none);
  std::vector<std::size_t> child_index(n, 0);
  std::vector<std::deque<fire_request>> parked(n);
  std::vector<bool> dead(n, false);
  std::vector<bool> ready(n, false);
  std::vector<bool> kept(before.size(), false);
  for (std::size_t j = 0; j < n; ++j) {
    const auto& trigger = now[j].template_.name;
    std::optional<std::size_t> i;
    for (std::size_t k = 0; k < before.size(); ++k)
      if (before[k].template_.name == trigger)
        i = k;
    auto key = "trigger/" + trigger;
    bool had_child = i && previous.triggers[*i].has_value();
    bool same = i && !fingerprint(previous, key).empty()
                && fingerprint(previous, key) == fingerprint(st.setup, key);
    if (i) {
      kept[*i] = true;
      parked[j] = std::move(st.parked[*i]);
    }
    if (!st.setup.triggers[j]) {
      dead[j] = true;
      if (had_child)
        st.children->remove("trigger", status_name(self, j));
      if (!parked[j].empty())
        drop(self, status_name(self, j), parked[j].size());
      parked[j].clear();
    } else if (had_child && same) {
      steps[j] = step::keep;
      child_index[j] = st.child_index[*i];
      dead[j] = st.dead[*i];
      ready[j] = st.ready[*i];
    } else {
      steps[j] = had_child ? step::replace : step::add;
    }
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (kept[i])
      continue;
    auto who = previous.manifest->metadata.name + "/" + before[i].template_.name;
    if (!st.parked[i].empty())
      drop(self, who, st.parked[i].size());
    if (previous.triggers[i])
      st.children->remove("trigger", who);
  }
  st.child_index = std::move(child_index);
  st.parked = std::move(parked);
  st.dead = std::move(dead);
  st.ready = std::move(ready);
  // Then the changed and new triggers start.
  std::size_t restarted = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (steps[j] == step::replace) {
      st.children->replace("trigger", status_name(self, j), spec_of(self, j));
      st.child_index[j] = *st.children->find("trigger", status_name(self, j));
    } else if (steps[j] == step::add) {
      st.child_index[j] = st.children->add(spec_of(self, j));
    } else {
      continue;
    }
    ++restarted;
  }
  if (restarted > 0)
    spdlog::info("sensor {}: {} trigger(s) (re)started by the reload",
                 st.setup.manifest->metadata.name, restarted);
}

} // namespace ganglion::core::sensor_triggers
