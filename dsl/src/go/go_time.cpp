#include "ganglion/dsl/go/go_time.hpp"

#include <charconv>

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>
#include <fmt/format.h>

namespace ganglion::dsl {

std::optional<std::string> go_time_string(go_time_point t, std::string_view time_zone) {
  cctz::time_zone zone;
  std::string name{time_zone.empty() || time_zone == "Local" ? "UTC" : time_zone};
  if (!cctz::load_time_zone(name, &zone))
    return std::nullopt;
  auto whole = std::chrono::floor<std::chrono::seconds>(t);
  auto nanos = (t - whole).count();
  auto lookup = zone.lookup(whole);
  const auto& c = lookup.cs;
  auto out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", c.year(), c.month(), c.day(),
                         c.hour(), c.minute(), c.second());
  if (nanos != 0) {
    auto fraction = fmt::format("{:09}", nanos);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += "." + fraction;
  }
  int offset = lookup.offset;
  char sign = offset < 0 ? '-' : '+';
  offset = offset < 0 ? -offset : offset;
  out += fmt::format(" {}{:02}{:02} {}", sign, offset / 3600, offset / 60 % 60, lookup.abbr);
  return out;
}

namespace {

/// Reads `digits` decimal digits at `pos`; false when they are not there.
bool read_number(std::string_view text, std::size_t pos, std::size_t digits, int& out) {
  if (pos + digits > text.size())
    return false;
  auto first = text.data() + pos;
  auto [end, ec] = std::from_chars(first, first + digits, out);
  return ec == std::errc{} && end == first + digits;
}

} // namespace

std::optional<go_time_point> parse_go_time_string(std::string_view text) {
  if (auto m = text.find(" m="); m != std::string_view::npos)
    text = text.substr(0, m);
  int year, month, day, hour, minute, second;
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' || text[13] != ':'
      || text[16] != ':' || !read_number(text, 0, 4, year) || !read_number(text, 5, 2, month)
      || !read_number(text, 8, 2, day) || !read_number(text, 11, 2, hour)
      || !read_number(text, 14, 2, minute) || !read_number(text, 17, 2, second))
    return std::nullopt;
  std::size_t pos = 19;
  std::int64_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    std::size_t digits = 0;
    for (++pos; pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 9;
         ++pos, ++digits)
      nanos = nanos * 10 + (text[pos] - '0');
    if (digits == 0)
      return std::nullopt;
    for (; digits < 9; ++digits)
      nanos *= 10;
  }
  int offset_hours, offset_minutes;
  if (pos + 6 > text.size() || text[pos] != ' ' || (text[pos + 1] != '+' && text[pos + 1] != '-')
      || !read_number(text, pos + 2, 2, offset_hours)
      || !read_number(text, pos + 4, 2, offset_minutes))
    return std::nullopt;
  int offset = (offset_hours * 3600 + offset_minutes * 60) * (text[pos + 1] == '-' ? -1 : 1);
  cctz::civil_second civil{year, month, day, hour, minute, second};
  if (civil.year() != year || civil.month() != month || civil.day() != day
      || civil.hour() != hour || civil.minute() != minute || civil.second() != second)
    return std::nullopt;
  auto utc = cctz::convert(civil, cctz::utc_time_zone()) - std::chrono::seconds{offset};
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(utc)
         + std::chrono::nanoseconds{nanos};
}

} // namespace ganglion::dsl
