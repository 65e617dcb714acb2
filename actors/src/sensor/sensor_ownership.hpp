#pragma once

// A sensor on a remote bus runs on the replica that owns it: this replica takes it over
// (state from the bus's state store, then its subscription) or hands it over.

#include "sensor/sensor_actor.hpp"

namespace ganglion::core::sensor_ownership {

using sensor_ptr = caf::stateful_actor<sensor_state>*;

/// Starts watching who owns the sensor; the sensor waits in phase Standby until it is this
/// replica.
void watch(sensor_ptr self);

/// Ownership changed (owner_atom): take the sensor over or hand it over. `process` runs the
/// matching core on one recovered event.
void on_change(sensor_ptr self, bool owned,
               const std::function<void(const event_ptr&)>& process);

/// Opens the subscription again for the current manifest (after a reload changed the
/// dependencies' sources).
void resubscribe(sensor_ptr self);

} // namespace ganglion::core::sensor_ownership
