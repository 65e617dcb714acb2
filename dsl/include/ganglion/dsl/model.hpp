#pragma once

// The typed argoproj.io/v1alpha1 model: EventSource, Sensor, EventBus, one header per kind under
// model/. Field names follow the Argo API in snake_case; see docs/compatibility.md for what runs.

#include "ganglion/dsl/model/common.hpp"
#include "ganglion/dsl/model/document.hpp"
#include "ganglion/dsl/model/event_bus.hpp"
#include "ganglion/dsl/model/event_source.hpp"
#include "ganglion/dsl/model/sensor.hpp"
#include "ganglion/dsl/model/trigger.hpp"
