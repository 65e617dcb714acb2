#pragma once

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::kafka {

/// Registers the `kafka` source and the `kafka` trigger, with default options.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers);

} // namespace ganglion::kafka
