#include "source/event_time.hpp"

#include <chrono>

#include <fmt/format.h>

namespace ganglion::storagegrid::detail {

namespace {

using namespace std::chrono;

bool digit(char c) {
  return c >= '0' && c <= '9';
}

/// The digits of `s` as a number within [min, max], or -1.
int number(std::string_view s, int min, int max) {
  if (s.empty())
    return -1;
  int x = 0;
  for (char c : s) {
    if (!digit(c))
      return -1;
    x = x * 10 + (c - '0');
  }
  return x < min || x > max ? -1 : x;
}

/// Reads `.123` (or `,123` when `comma`) off the front of `s` into nanoseconds (Go keeps nine
/// digits and drops the rest).
void read_fraction(std::string_view& s, std::int32_t& nanos, bool comma) {
  if (s.size() < 2 || !(s[0] == '.' || (comma && s[0] == ',')) || !digit(s[1]))
    return;
  std::size_t n = 1;
  std::int32_t value = 0;
  int kept = 0;
  for (; n < s.size() && digit(s[n]); ++n)
    if (kept < 9) {
      value = value * 10 + (s[n] - '0');
      ++kept;
    }
  for (; kept < 9; ++kept)
    value *= 10;
  nanos = value;
  s.remove_prefix(n);
}

/// `Z` or `±hh:mm` (hours up to `max_hour`, minutes up to `max_minute`) as seconds east.
std::optional<std::int32_t> read_zone(std::string_view s, int max_hour, int max_minute) {
  if (s == "Z")
    return 0;
  if (s.size() != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':')
    return std::nullopt;
  int h = number(s.substr(1, 2), 0, max_hour);
  int m = number(s.substr(4, 2), 0, max_minute);
  if (h < 0 || m < 0)
    return std::nullopt;
  std::int32_t off = (h * 60 + m) * 60;
  return s[0] == '-' ? -off : off;
}

/// `2006-01-02T15:04:05` with the hour `hour_digits` long; the rest of `s` after it.
std::optional<event_time> read_civil(std::string_view& s, std::size_t hour_digits) {
  std::size_t len = 17 + hour_digits;
  std::size_t h = 11 + hour_digits; // the ':' after the hour
  if (s.size() < len || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[h] != ':'
      || s[h + 3] != ':')
    return std::nullopt;
  int y = number(s.substr(0, 4), 0, 9999);
  int mo = number(s.substr(5, 2), 1, 12);
  if (y < 0 || mo < 0)
    return std::nullopt;
  auto last = year_month_day_last{year{y}, month_day_last{month{static_cast<unsigned>(mo)}}};
  int d = number(s.substr(8, 2), 1, static_cast<int>(static_cast<unsigned>(last.day())));
  int hh = number(s.substr(11, hour_digits), 0, 23);
  int mi = number(s.substr(h + 1, 2), 0, 59);
  int se = number(s.substr(h + 4, 2), 0, 59);
  if (d < 0 || hh < 0 || mi < 0 || se < 0)
    return std::nullopt;
  auto days = sys_days{year{y} / month{static_cast<unsigned>(mo)} / day{static_cast<unsigned>(d)}};
  event_time t;
  t.unix_seconds =
    duration_cast<seconds>(days.time_since_epoch()).count() + hh * 3600 + mi * 60 + se;
  s.remove_prefix(len);
  return t;
}

/// Go's fast RFC 3339 path (parseRFC3339) when `lenient` is false, time.Parse's otherwise.
std::optional<event_time> parse(std::string_view s, bool lenient) {
  std::size_t hour_digits = 2;
  if (lenient && s.size() > 12 && s[12] == ':')
    hour_digits = 1;
  auto t = read_civil(s, hour_digits);
  if (!t)
    return std::nullopt;
  read_fraction(s, t->nanoseconds, lenient);
  auto zone = lenient ? read_zone(s, 24, 60) : read_zone(s, 23, 59);
  if (!zone)
    return std::nullopt;
  t->unix_seconds -= *zone;
  t->offset_seconds = *zone;
  return t;
}

} // namespace

std::optional<event_time> parse_event_time(std::string_view text) {
  if (auto t = parse(text, false))
    return t;
  return parse(text, true);
}

std::string format_event_time(const event_time& t) {
  auto local = sys_seconds{seconds{t.unix_seconds + t.offset_seconds}};
  auto days = floor<std::chrono::days>(local);
  year_month_day ymd{days};
  hh_mm_ss clock{local - days};
  auto out = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", static_cast<int>(ymd.year()),
                         static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                         clock.hours().count(), clock.minutes().count(), clock.seconds().count());
  if (t.nanoseconds != 0) {
    auto fraction = fmt::format("{:09}", t.nanoseconds);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += '.' + fraction;
  }
  if (t.offset_seconds == 0)
    return out + 'Z';
  auto minutes = (t.offset_seconds < 0 ? -t.offset_seconds : t.offset_seconds) / 60;
  return out
         + fmt::format("{}{:02}:{:02}", t.offset_seconds < 0 ? '-' : '+', minutes / 60,
                       minutes % 60);
}

} // namespace ganglion::storagegrid::detail
