#pragma once

#include <string>
#include <vector>

#include "ganglion/core/trigger.hpp"

namespace ganglion::core {

/// The `log` trigger: writes each firing's events to the log (stderr), at most one line per
/// `intervalSeconds` when set (the others are counted and reported with the next line), and
/// at most 64 KiB of them per line (the rest is counted, not shown).
trigger_factory make_log_trigger_factory();

/// The log trigger's check step: it runs any configuration that has a trigger.
std::vector<std::string> check_log_trigger(const trigger_context& ctx);

} // namespace ganglion::core
