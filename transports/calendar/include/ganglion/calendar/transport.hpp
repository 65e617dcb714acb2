#pragma once

#include "ganglion/core/source.hpp"

namespace ganglion::calendar {

/// Registers the `calendar` event source.
void register_transport(core::source_registry& sources);

} // namespace ganglion::calendar
