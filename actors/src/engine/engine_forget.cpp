#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "sensor/remote_ledger.hpp"
#include "storage/sensor_store.hpp"

namespace ganglion::core {

void engine::impl::forget_sensor(const std::string& name) {
  metrics.hide("sensor", name);
  if (auto& remote = options.remote) {
    try {
      remote->forget(name);
    } catch (const std::exception& ex) {
      spdlog::warn("sensor {} removed; the bus did not delete its subscription: {}", name,
                   ex.what());
    }
    remote->state().store(remote_ledger::key_of(name), {}, [name](const std::string& error) {
      if (!error.empty())
        spdlog::warn("sensor {} removed; the bus did not delete its state: {}", name, error);
    });
    spdlog::info("sensor {} removed: its subscription and stored state are deleted", name);
    return;
  }
  if (!log)
    return;
  // Its subscription goes: the log no longer keeps events for it, and its state is deleted.
  cursors->remove(name);
  sensor_store::remove(state_directory(name));
  spdlog::info("sensor {} removed: its cursor and stored state are deleted", name);
}

} // namespace ganglion::core
