#pragma once

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Argo's EventSource rules (reconciler/eventsource and each source's validate.go) plus
/// ganglion's webhook rules; reports every problem into cx.
void validate_event_source(const event_source& source, const load_context& cx);

/// Argo's Sensor rules (reconciler/sensor/validate.go) plus condition checks; keeps each
/// dependency's compiled data and expr filters (`precompiled`) and each template's compiled
/// conditions (`compiled_conditions`) on the model for the sensor to share.
void validate_sensor(sensor& sensor, const load_context& cx);

/// Argo's EventBus rules (reconciler/eventbus/validate.go).
void validate_event_bus(const event_bus& bus, const load_context& cx);

} // namespace ganglion::dsl::detail
