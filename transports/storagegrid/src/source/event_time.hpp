#pragma once

// A record's `eventTime` as Argo reads and writes it: a Go time.Time through json.Unmarshal
// (RFC 3339) and json.Marshal (RFC 3339 with nanoseconds), Argo's process in UTC.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::storagegrid::detail {

/// A time as Go keeps it for marshalling: the instant and the offset it was written with.
struct event_time {
  std::int64_t unix_seconds = -62135596800; ///< Go's zero time, 0001-01-01T00:00:00Z
  std::int32_t nanoseconds = 0;
  std::int32_t offset_seconds = 0; ///< east of UTC; 0 is UTC (Go's Local in Argo's container)
};

/// time.Time.UnmarshalJSON of the string `text`: RFC 3339 (`2019-02-27T21:15:09.5Z`,
/// `…+02:00`), and what time.Parse(time.RFC3339) also lets through (a one-digit hour, `,`
/// before the fraction, an offset up to 24:60); nullopt otherwise.
std::optional<event_time> parse_event_time(std::string_view text);

/// time.Time.MarshalJSON's text, unquoted: `2019-02-27T21:15:09.5Z` (fraction without trailing
/// zeros, `Z` for UTC, else `±hh:mm`).
std::string format_event_time(const event_time& t);

} // namespace ganglion::storagegrid::detail
