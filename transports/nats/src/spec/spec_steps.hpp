#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/nats/spec.hpp"

// The nats kind's readers (YAML → model) and rules (Argo's nats validate.go plus ganglion's).

namespace ganglion::nats::detail {

/// Reads `spec.nats.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Reads `template.nats`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Argo's rules for `spec.nats.<event>`.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Argo's validateNATSTrigger plus ganglion's rules for `template.nats`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

/// Reads an EventBus `spec.jetstream` (`managed`) or `spec.jetstreamExotic`.
bus_spec read_bus(const dsl::spec_read_input& in, bool managed);

/// Reads an EventBus `spec.nats`.
streaming_bus_spec read_streaming_bus(const dsl::spec_read_input& in);

/// Argo's rules for an EventBus `spec.jetstream` / `spec.jetstreamExotic`, plus the stream's.
void check_bus(const bus_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for an EventBus `spec.nats`: native or exotic, exotic's clusterID and url.
void check_streaming_bus(const streaming_bus_spec& spec, const dsl::spec_check_input& in);

/// The `streamConfig` YAML string of a JetStream bus, over ganglion's defaults; values that
/// do not parse are reported at their line.
stream_settings read_stream_config(const YAML::Node& node, const std::string& path,
                                   const dsl::detail::load_context& cx);

/// A nats-server size (`maxPayload`): an integer with an optional k/kb/m/mb/g/gb suffix
/// (k = 1000, kb = 1024, any case); nullopt when it does not parse.
std::optional<std::int64_t> parse_nats_size(std::string_view text);

} // namespace ganglion::nats::detail
