#pragma once

#include <vector>

#include "sensor/explain_log.hpp"
#include "sensor/sensor_core.hpp"

namespace ganglion::core {

/// The triggers of `core` whose condition holds events for some dependencies and waits for the
/// others, for /v1/explain.
std::vector<waiting_trigger> waiting_triggers(const sensor_core& core);

/// Whether a trigger of `core` has a condition over more than one dependency (the only kind
/// that can wait).
bool has_joins(const sensor_core& core);

/// Records the waiting triggers of `core` in `log` (none when `log` is null).
void publish_waiting(explain_log* log, const sensor_core& core);

} // namespace ganglion::core
