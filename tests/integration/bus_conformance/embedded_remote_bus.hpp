#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::test::bus_conformance {

/// The embedded bus behind core::remote_bus, put together as `ganglion run` does for a durable
/// sensor: embedded_bus over the event_log in `<directory>/log`, and per subscription a
/// sensor_ledger in `<directory>/sensors/<sensor>` with an actor the bus routes to. A delivered
/// event is held until acknowledged (counting against `capacity`, as a sensor's unfinished
/// events do); dropping the subscription commits, as a stopping sensor does, so what was not
/// acknowledged is delivered again by the next subscription. It has no state store and no
/// ownership (one process; state() and owners() throw std::logic_error).
std::shared_ptr<core::remote_bus> make_embedded_remote_bus(caf::actor_system& system,
                                                           const std::string& directory,
                                                           std::size_t capacity);

} // namespace ganglion::test::bus_conformance
