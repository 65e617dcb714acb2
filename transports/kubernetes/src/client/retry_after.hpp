#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace ganglion::kubernetes::detail {

/// How long a `Retry-After` header asks to wait (RFC 9110: delay-seconds, or an HTTP-date
/// measured from `now`; a date in the past is no wait); nullopt when the value is neither.
std::optional<std::chrono::milliseconds> parse_retry_after(
  const std::string& value, std::chrono::system_clock::time_point now);

} // namespace ganglion::kubernetes::detail
