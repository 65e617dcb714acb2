#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/kind/json_rules.hpp"
#include "validate/validate_sources.hpp"
#include "go/time_zone.hpp"

// Argo's calendar/validate.go (plus the time zone and exclusion dates), on the JSON spec: the
// calendar source is not run yet, so it has no kind folder.

namespace ganglion::dsl::detail {

namespace {

std::vector<std::string> strings_at(const nlohmann::json& spec, const char* key) {
  std::vector<std::string> out;
  if (has(spec, key) && spec[key].is_array())
    for (const auto& item : spec[key])
      out.push_back(item.is_string() ? item.get<std::string>() : item.dump());
  return out;
}

void validate_exclusion_dates(const std::vector<std::string>& dates, const std::string& path,
                              const load_context& cx) {
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const auto& d = dates[i];
    auto at = item_path(path, i);
    constexpr std::string_view prefix = "EXDATE:";
    if (!std::string_view{d}.starts_with(prefix)) {
      cx.warning(at, "ignored: an exclusion date must look like EXDATE:20060102T150405Z");
      continue;
    }
    std::string_view rest = std::string_view{d}.substr(prefix.size());
    for (;;) {
      auto comma = rest.find(',');
      auto one = rest.substr(0, comma);
      // 20060102T150405Z
      bool ok = one.size() == 16 && one[8] == 'T' && one[15] == 'Z';
      for (std::size_t k = 0; ok && k < 15; ++k)
        if (k != 8 && (one[k] < '0' || one[k] > '9'))
          ok = false;
      if (ok) {
        auto num = [&](std::size_t pos, std::size_t len) {
          return std::stoi(std::string{one.substr(pos, len)});
        };
        auto date = std::chrono::year{num(0, 4)} / std::chrono::month{unsigned(num(4, 2))}
                    / std::chrono::day{unsigned(num(6, 2))};
        ok = date.ok() && num(9, 2) <= 23 && num(11, 2) <= 59 && num(13, 2) <= 59;
      }
      if (!ok) {
        cx.error(at, "invalid exclusion date \"" + std::string{one}
                       + "\" (expected 20060102T150405Z)");
        break;
      }
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
  }
}

} // namespace

void validate_calendar_event(const nlohmann::json& c, const std::string& at,
                             const load_context& cx) {
  auto schedule = text(c, "schedule");
  auto interval = text(c, "interval");
  if (schedule.empty() && interval.empty())
    cx.error(at, "a calendar event needs a schedule or an interval");
  if (!schedule.empty()) {
    try {
      cron_schedule::parse(schedule);
    } catch (const compile_error& e) {
      cx.error(child_path(at, "schedule"),
               "invalid cron schedule \"" + schedule + "\": " + e.what());
    }
    if (!interval.empty())
      cx.warning(child_path(at, "interval"), "ignored: schedule takes precedence over interval");
  } else if (!interval.empty() && !parse_go_duration(interval)) {
    cx.error(child_path(at, "interval"),
             "invalid interval \"" + interval + "\" (a Go duration such as 10s or 1h30m)");
  }
  auto timezone = text(c, "timezone");
  if (!time_zone_exists(timezone))
    cx.error(child_path(at, "timezone"), "unknown time zone \"" + timezone + "\"");
  validate_exclusion_dates(strings_at(c, "exclusionDates"), child_path(at, "exclusionDates"), cx);
  if (has(c, "persistence") && has(c["persistence"], "catchup")) {
    auto max = text(c["persistence"]["catchup"], "maxDuration");
    if (!max.empty() && !parse_go_duration(max))
      cx.error(child_path(child_path(child_path(at, "persistence"), "catchup"), "maxDuration"),
               "invalid duration \"" + max + "\"");
  }
}

} // namespace ganglion::dsl::detail
