#pragma once

// Private: the times the resource source's filters compare (Argo's getEventTime).

#include <chrono>
#include <optional>
#include <string_view>

#include <simdjson.h>

namespace ganglion::kubernetes::detail {

using time_point = std::chrono::system_clock::time_point;

/// An RFC 3339 time as Go's time.Parse(time.RFC3339) reads it (`2019-04-06T12:52:11Z`,
/// optional fraction, `Z` or `±hh:mm`), or nullopt.
std::optional<time_point> parse_rfc3339(std::string_view text);

/// `metadata.creationTimestamp` of `object`; Go's zero time when absent or malformed.
time_point creation_time(simdjson::dom::element object);

/// When the change of `type` (`ADD`, `UPDATE`, `DELETE`) happened, as Argo's getEventTime
/// tells it: ADD the creation time; UPDATE the latest `metadata.managedFields[].time` of an
/// `Update` operation, else the creation time; DELETE `metadata.deletionTimestamp`, else `now`.
time_point event_time(simdjson::dom::element object, std::string_view type, time_point now);

} // namespace ganglion::kubernetes::detail
