#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// A time at nanosecond precision.
using go_time_point = std::chrono::sys_time<std::chrono::nanoseconds>;

/// Go's `time.Time.String()` of `t` in `time_zone` (an IANA name; empty or "UTC": UTC), without
/// the monotonic-clock suffix: `2006-01-02 15:04:05.999999999 -0700 MST` (fraction without
/// trailing zeros, left out when zero). nullopt when the zone does not load.
std::optional<std::string> go_time_string(go_time_point t, std::string_view time_zone);

/// Reads what go_time_string (or Go's `String()`, ` m=+…` suffix and all) writes, by its
/// numeric offset; nullopt for anything else.
std::optional<go_time_point> parse_go_time_string(std::string_view text);

} // namespace ganglion::dsl
