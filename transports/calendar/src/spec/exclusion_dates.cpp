#include "spec/exclusion_dates.hpp"

#include <charconv>
#include <optional>
#include <string_view>

namespace ganglion::calendar::detail {

namespace {

/// `20060102T150405Z` (Go's time.Parse with that layout) as its date.
std::optional<std::chrono::year_month_day> parse_date_time(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z')
    return std::nullopt;
  auto number = [&](std::size_t pos, std::size_t len) -> std::optional<int> {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data() + pos, text.data() + pos + len, value);
    if (ec != std::errc{} || end != text.data() + pos + len)
      return std::nullopt;
    return value;
  };
  auto year = number(0, 4), month = number(4, 2), day = number(6, 2);
  auto hour = number(9, 2), minute = number(11, 2), second = number(13, 2);
  if (!year || !month || !day || !hour || !minute || !second || *hour > 23 || *minute > 59
      || *second > 59)
    return std::nullopt;
  std::chrono::year_month_day date{std::chrono::year{*year},
                                   std::chrono::month{static_cast<unsigned>(*month)},
                                   std::chrono::day{static_cast<unsigned>(*day)}};
  if (!date.ok())
    return std::nullopt;
  return date;
}

} // namespace

exclusion_dates read_exclusion_dates(const std::vector<std::string>& entries) {
  constexpr std::string_view prefix = "EXDATE:";
  exclusion_dates out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::string_view rest = entries[i];
    if (!rest.starts_with(prefix)) {
      out.unprefixed.push_back(i);
      continue;
    }
    rest.remove_prefix(prefix.size());
    for (;;) {
      auto comma = rest.find(',');
      auto one = rest.substr(0, comma);
      if (auto date = parse_date_time(one)) {
        out.days.push_back(*date);
      } else {
        out.invalid.emplace_back(i, std::string{one});
        break;
      }
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
  }
  return out;
}

} // namespace ganglion::calendar::detail
