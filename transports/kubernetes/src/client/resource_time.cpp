#include "client/resource_time.hpp"

#include <charconv>

namespace ganglion::kubernetes::detail {

namespace {

/// Go's zero time.Time (January 1, year 1), earlier than any time a time_point can hold.
time_point zero_time() {
  return time_point::min();
}

bool digits(std::string_view text, std::size_t at, std::size_t n, int& out) {
  if (at + n > text.size())
    return false;
  auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + n, out);
  return ec == std::errc{} && end == text.data() + at + n;
}

std::optional<time_point> time_at(simdjson::dom::element object, const char* field) {
  std::string_view text;
  if (object["metadata"][field].get(text) != simdjson::SUCCESS)
    return std::nullopt;
  return parse_rfc3339(text);
}

} // namespace

std::optional<time_point> parse_rfc3339(std::string_view s) {
  using namespace std::chrono;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-'
      || !digits(s, 8, 2, d) || s[10] != 'T' || !digits(s, 11, 2, h) || s[13] != ':'
      || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se))
    return std::nullopt;
  std::size_t at = 19;
  nanoseconds fraction{0};
  if (at < s.size() && s[at] == '.') {
    std::size_t start = ++at;
    std::int64_t scale = 100000000;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      fraction += nanoseconds{(s[at] - '0') * scale};
      scale /= 10;
      ++at;
    }
    if (at == start)
      return std::nullopt;
  }
  minutes offset{0};
  if (at < s.size() && s[at] == 'Z') {
    ++at;
  } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
    int oh = 0, om = 0;
    if (!digits(s, at + 1, 2, oh) || at + 3 >= s.size() || s[at + 3] != ':'
        || !digits(s, at + 4, 2, om) || oh > 23 || om > 59)
      return std::nullopt;
    offset = hours{oh} + minutes{om};
    if (s[at] == '-')
      offset = -offset;
    at += 6;
  } else {
    return std::nullopt;
  }
  year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (at != s.size() || !date.ok() || h > 23 || mi > 59 || se > 59)
    return std::nullopt;
  auto secs = sys_days{date}.time_since_epoch() + hours{h} + minutes{mi} + seconds{se} - offset;
  // time_point counts nanoseconds in 64 bits (years 1678 to 2261): saturate beyond.
  constexpr seconds limit{9'000'000'000};
  if (secs < -limit)
    return time_point::min();
  if (secs > limit)
    return time_point::max();
  return time_point{duration_cast<time_point::duration>(secs) + fraction};
}

time_point creation_time(simdjson::dom::element object) {
  return time_at(object, "creationTimestamp").value_or(zero_time());
}

time_point event_time(simdjson::dom::element object, std::string_view type, time_point now) {
  if (type == "DELETE")
    return time_at(object, "deletionTimestamp").value_or(now);
  auto t = creation_time(object);
  if (type != "UPDATE")
    return t;
  simdjson::dom::array fields;
  if (object["metadata"]["managedFields"].get(fields) != simdjson::SUCCESS)
    return t;
  for (auto field : fields) {
    std::string_view operation, when;
    if (field["operation"].get(operation) != simdjson::SUCCESS || operation != "Update"
        || field["time"].get(when) != simdjson::SUCCESS)
      continue;
    if (auto at = parse_rfc3339(when); at && *at > t)
      t = *at;
  }
  return t;
}

} // namespace ganglion::kubernetes::detail
