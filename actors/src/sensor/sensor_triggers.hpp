#pragma once

// The trigger children of a sensor actor: starting them, handing them firings, their
// conditionsReset clocks, and reconciling them with a reloaded manifest.

#include <cstdint>
#include <optional>
#include <string>

#include "sensor/sensor_actor.hpp"

namespace ganglion::core::sensor_triggers {

/// The sensor actor these functions work on.
using sensor_ptr = caf::stateful_actor<sensor_state>*;

/// `<sensor>/<trigger>` of trigger `i`, as /v1/status shows it.
std::string status_name(sensor_ptr self, std::size_t i);

/// Starts a supervised actor for every trigger that can run.
void start(sensor_ptr self);

/// Hands one firing to trigger `i` (parked while it restarts, dropped when it is in Error).
void deliver(sensor_ptr self, std::size_t i, fire_request request);

/// A trigger actor (`sender`) said it takes firings: its parked firings go to it.
void on_ready(sensor_ptr self, const caf::strong_actor_ptr& sender);

/// Schedules every conditionsReset of every trigger.
void start_reset_clocks(sensor_ptr self);

/// Handles a conditionsReset that came due (ignored when it predates a reload).
void on_reset(sensor_ptr self, std::uint64_t generation, std::uint64_t trigger,
              std::uint64_t entry);

/// After a reload replaced the sensor's setup (`previous` is the old one): unchanged triggers
/// keep running, changed ones are restarted, new ones start, removed ones stop.
void reconcile(sensor_ptr self, const sensor_setup& previous);

} // namespace ganglion::core::sensor_triggers
