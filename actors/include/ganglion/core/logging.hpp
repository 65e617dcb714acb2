#pragma once

// ganglion's log, as a host sees it: the level and where the lines go, without spdlog's types.
// ganglion writes through spdlog's default logger, so both settings are process-wide.

#include <functional>
#include <string_view>

namespace ganglion::core {

/// The level of a log line, lowest first; `off` as a threshold writes nothing.
enum class log_level { trace, debug, info, warn, error, critical, off };

/// Receives each log line: its level and its message (no time stamp, no level). Called from
/// any thread, one line at a time.
using log_callback = std::function<void(log_level level, std::string_view message)>;

/// Sends every log line to `callback` instead of standard output; an empty callback restores
/// standard output. Keeps the level.
void set_log_callback(log_callback callback);

/// Writes lines of `level` and above only (default: info).
void set_log_level(log_level level);

/// Strips the userinfo of every URL (redact_url_userinfo) from each line the default logger
/// writes, on every sink, from now on; lines given to a log callback are always stripped. The
/// ganglion binary calls it at start; a host embedding the engine may. Idempotent.
void redact_log_lines();

} // namespace ganglion::core
