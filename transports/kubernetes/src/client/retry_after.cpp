#include "client/retry_after.hpp"

#include <charconv>

#include <curl/curl.h>

namespace ganglion::kubernetes::detail {

std::optional<std::chrono::milliseconds> parse_retry_after(
  const std::string& value, std::chrono::system_clock::time_point now) {
  constexpr long a_day = 24L * 3600;
  long seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec == std::errc{} && end == value.data() + value.size())
    return seconds < 0 ? std::nullopt
                       : std::optional{std::chrono::milliseconds{std::min(seconds, a_day) * 1000}};
  // libcurl's date parser takes the three forms RFC 9110 allows (IMF-fixdate, RFC 850, asctime).
  auto at = curl_getdate(value.c_str(), nullptr);
  if (at < 0)
    return std::nullopt;
  auto wait = std::chrono::system_clock::from_time_t(at) - now;
  if (wait <= std::chrono::milliseconds::zero())
    return std::chrono::milliseconds::zero();
  return std::min(std::chrono::duration_cast<std::chrono::milliseconds>(wait),
                  std::chrono::milliseconds{a_day * 1000});
}

} // namespace ganglion::kubernetes::detail
