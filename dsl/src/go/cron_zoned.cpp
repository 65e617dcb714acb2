// robfig/cron v3 SpecSchedule.Next on a zone's wall clock (cctz), step for step: months and
// days move the civil date (Go's AddDate), hours and minutes move the absolute time (Go's Add),
// so daylight-saving transitions skip or repeat wall-clock hours exactly as in Argo.

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

#include "ganglion/dsl/cron.hpp"

namespace ganglion::dsl {

namespace {

using std::chrono::sys_seconds;

constexpr std::uint64_t star_bit = std::uint64_t{1} << 63;

bool has(std::uint64_t bits, int value) { return (bits >> value) & 1; }

/// The wall clock of one zone.
struct wall_clock {
  cctz::time_zone zone;

  cctz::civil_second civil(sys_seconds t) const { return cctz::convert(t, zone); }
  /// Go's time.Date in the zone (a skipped time takes the offset before the transition).
  sys_seconds at(const cctz::civil_second& c) const {
    return std::chrono::time_point_cast<std::chrono::seconds>(cctz::convert(c, zone));
  }
};

} // namespace

std::optional<sys_seconds> cron_schedule::next(sys_seconds after,
                                               std::string_view time_zone) const {
  if (every_)
    return after + *every_;
  wall_clock clock;
  auto zone_name = location_.empty() ? std::string{time_zone} : location_;
  if (zone_name.empty() || zone_name == "Local")
    zone_name = "UTC";
  if (!cctz::load_time_zone(zone_name, &clock.zone))
    return std::nullopt;
  using std::chrono::hours;
  using std::chrono::minutes;
  using std::chrono::seconds;
  sys_seconds t = after + seconds{1};
  bool added = false;
  const auto year_limit = clock.civil(t).year() + 5;
  auto day_matches = [this](const cctz::civil_second& c) {
    auto day = std::chrono::sys_days{std::chrono::year{static_cast<int>(c.year())}
                                     / std::chrono::month{static_cast<unsigned>(c.month())}
                                     / std::chrono::day{static_cast<unsigned>(c.day())}};
    bool dom_match = has(dom_, c.day());
    bool dow_match = has(dow_, static_cast<int>(std::chrono::weekday{day}.c_encoding()));
    if ((dom_ & star_bit) || (dow_ & star_bit))
      return dom_match && dow_match;
    return dom_match || dow_match;
  };
wrap:
  if (clock.civil(t).year() > year_limit)
    return std::nullopt;
  while (!has(month_, clock.civil(t).month())) {
    auto c = clock.civil(t);
    if (!added) {
      added = true;
      c = cctz::civil_second{c.year(), c.month(), 1, 0, 0, 0};
    }
    t = clock.at(cctz::civil_second{c.year(), c.month() + 1, c.day(), c.hour(), c.minute(),
                                    c.second()});
    if (clock.civil(t).month() == 1)
      goto wrap;
  }
  while (!day_matches(clock.civil(t))) {
    auto c = clock.civil(t);
    if (!added) {
      added = true;
      c = cctz::civil_second{c.year(), c.month(), c.day(), 0, 0, 0};
    }
    t = clock.at(cctz::civil_second{c.year(), c.month(), c.day() + 1, c.hour(), c.minute(),
                                    c.second()});
    // The hour is no longer midnight when a transition happened on the way.
    if (auto hour = clock.civil(t).hour(); hour != 0)
      t += hour > 12 ? hours{24 - hour} : -hours{hour};
    if (clock.civil(t).day() == 1)
      goto wrap;
  }
  while (!has(hour_, clock.civil(t).hour())) {
    if (!added) {
      added = true;
      auto c = clock.civil(t);
      t = clock.at(cctz::civil_second{c.year(), c.month(), c.day(), c.hour(), 0, 0});
    }
    t += hours{1};
    if (clock.civil(t).hour() == 0)
      goto wrap;
  }
  while (!has(minute_, clock.civil(t).minute())) {
    if (!added) {
      added = true;
      t = std::chrono::floor<minutes>(t);
    }
    t += minutes{1};
    if (clock.civil(t).minute() == 0)
      goto wrap;
  }
  while (!has(second_, clock.civil(t).second())) {
    added = true;
    t += seconds{1};
    if (clock.civil(t).second() == 0)
      goto wrap;
  }
  return t;
}

} // namespace ganglion::dsl
