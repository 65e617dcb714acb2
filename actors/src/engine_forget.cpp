#include <spdlog/spdlog.h>

#include "engine_impl.hpp"
#include "sensor_store.hpp"

namespace ganglion::core {

void engine::impl::forget_sensor(const std::string& name) {
  if (!log)
    return;
  // Its subscription goes: the log no longer keeps events for it, and its state is deleted.
  cursors->remove(name);
  sensor_store::remove(options.data_dir + "/sensors/" + name);
  spdlog::info("sensor {} removed: its cursor and stored state are deleted", name);
}

} // namespace ganglion::core
