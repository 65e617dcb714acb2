#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Reads an EventSource document (already checked against the schema).
event_source load_event_source(const YAML::Node& root, const load_context& cx);

/// Reads a Sensor document.
sensor load_sensor(const YAML::Node& root, const load_context& cx);

/// Reads one trigger (also a dlqTrigger) at `path`.
trigger load_trigger(const YAML::Node& node, const std::string& path, const load_context& cx);

/// Reads an EventBus document.
event_bus load_event_bus(const YAML::Node& root, const load_context& cx);

} // namespace ganglion::dsl::detail
