#pragma once

#include "ganglion/core/bus_kind.hpp"
#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::kafka {

/// Registers the `kafka` source and the `kafka` trigger, with default options.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers);

/// Registers the EventBus kind `kafka`: `run` opens it with `--replica-id`, `--lease-ttl` (the
/// ownership group's session, at least 6 s) and every `--bus-property KEY=VALUE`.
void register_bus_kinds(core::bus_registry& buses);

/// The command-line options of the kafka kinds: `run --bus-property KEY=VALUE` (repeatable).
core::command_options command_options();

} // namespace ganglion::kafka
