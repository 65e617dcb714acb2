#pragma once

#include "ganglion/core/trigger.hpp"

namespace ganglion::core {

/// The `log` trigger: writes each firing's events to the log (stderr), at most one line per
/// `intervalSeconds` when set (the others are counted and reported with the next line).
trigger_factory make_log_trigger_factory();

} // namespace ganglion::core
