#pragma once

#include <string_view>

namespace ganglion::dsl::detail {

/// True when Go's time.LoadLocation would load `name`: empty, "UTC", "Local", or a file under
/// /usr/share/zoneinfo (names with "..", or starting with "/" or "\", are rejected).
bool time_zone_exists(std::string_view name);

} // namespace ganglion::dsl::detail
