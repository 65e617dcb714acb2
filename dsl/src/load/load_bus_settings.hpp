#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/model.hpp"

// Readers of the EventBus settings that are embedded strings or sizes.

namespace ganglion::dsl::detail {

/// The `streamConfig` YAML string of a JetStream bus, over ganglion's defaults; values that
/// do not parse are reported at their line.
jetstream_stream_settings read_stream_config(const YAML::Node& node, const std::string& path,
                                             const load_context& cx);

/// A nats-server size (`maxPayload`): an integer with an optional k/kb/m/mb/g/gb suffix
/// (k = 1000, kb = 1024, any case); nullopt when it does not parse.
std::optional<std::int64_t> parse_nats_size(std::string_view text);

} // namespace ganglion::dsl::detail
