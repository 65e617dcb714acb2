#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ganglion::dsl {

/// Parses a Go duration (`time.ParseDuration`): "300ms", "-1.5h", "2h45m", "1m30s", "0"; units
/// ns, us (µs, μs), ms, s, m, h. Returns nanoseconds, or nullopt for bad syntax or overflow.
std::optional<std::int64_t> parse_go_duration(std::string_view text);

} // namespace ganglion::dsl
