#include "sensor/sensor_ownership.hpp"

#include <spdlog/spdlog.h>

#include "sensor/remote_ledger.hpp"

namespace ganglion::core::sensor_ownership {

namespace {

/// Events the bus delivers go to the sensor's mailbox as batches.
std::shared_ptr<remote_subscription> subscribe(sensor_ptr self) {
  auto& st = self->state;
  auto handler = [addr = self->address(), work = st.setup.work](std::vector<event_ptr>&& events) {
    auto actor = caf::actor_cast<caf::actor>(addr);
    if (!actor || events.empty())
      return; // not acknowledged: the bus delivers them again
    auto units = static_cast<std::int64_t>(events.size());
    work->add(units);
    auto ticket = std::make_shared<work_ticket>(work, units);
    caf::anon_send(actor, event_batch{std::move(events), std::move(ticket)});
  };
  return st.setup.remote->subscribe(st.setup.manifest->metadata.name, st.core->subscriptions(),
                                    std::move(handler));
}

void hand_over(sensor_ptr self) {
  auto& st = self->state;
  const auto& name = st.setup.manifest->metadata.name;
  st.owned = false;
  st.subscription.reset();
  st.ledger.reset();
  // The join state goes with the sensor: the new owner has it from the state store.
  auto dedup = std::move(st.core->dedup());
  st.core = std::make_unique<sensor_core>(*st.setup.manifest, st.setup.metrics, st.setup.matching);
  st.core->dedup() = std::move(dedup);
  st.setup.status->set("sensor", name, phase::standby);
  spdlog::info("sensor {}: handed over to another replica", name);
}

void take_over(sensor_ptr self, const std::function<void(const event_ptr&)>& process) {
  auto& st = self->state;
  const auto& name = st.setup.manifest->metadata.name;
  auto owned = std::make_unique<remote_ledger>(name, st.setup.remote,
                                               std::chrono::milliseconds(1000));
  auto& ledger = *owned;
  // The ledger is in place before the stored events run again: their firings need it.
  st.ledger = std::move(owned);
  st.owned = true;
  try {
    ledger.recover(st.core->dedup(), process);
    st.subscription = std::shared_ptr<remote_subscription>(subscribe(self));
  } catch (const std::exception& ex) {
    self->quit(component_failure(std::string{"cannot take over from the bus: "} + ex.what()));
    return;
  }
  ledger.attach(st.subscription);
  st.setup.status->set("sensor", name, phase::running);
  spdlog::info("sensor {} is running on this replica ({})", name,
               st.setup.remote->owners().replica());
  st.ledger->commit();
}

} // namespace

void watch(sensor_ptr self) {
  auto& st = self->state;
  st.setup.status->set("sensor", st.setup.manifest->metadata.name, phase::standby);
  st.owner_watch = st.setup.remote->owners().watch(
    st.setup.manifest->metadata.name, [addr = self->address()](bool owned) {
      if (auto actor = caf::actor_cast<caf::actor>(addr))
        caf::anon_send(actor, owner_atom::value, owned);
    });
}

void on_change(sensor_ptr self, bool owned,
               const std::function<void(const event_ptr&)>& process) {
  if (owned == self->state.owned)
    return;
  if (owned)
    take_over(self, process);
  else
    hand_over(self);
}

void resubscribe(sensor_ptr self) {
  auto& st = self->state;
  if (!st.owned)
    return;
  try {
    st.subscription = std::shared_ptr<remote_subscription>(subscribe(self));
  } catch (const std::exception& ex) {
    self->quit(component_failure(std::string{"cannot subscribe again: "} + ex.what()));
    return;
  }
  static_cast<remote_ledger&>(*st.ledger).attach(st.subscription);
}

} // namespace ganglion::core::sensor_ownership
