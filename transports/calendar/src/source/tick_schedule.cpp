#include "source/tick_schedule.hpp"

#include <stdexcept>

#include "ganglion/dsl/duration.hpp"
#include "spec/exclusion_dates.hpp"

namespace ganglion::calendar::detail {

tick_schedule::tick_schedule(const event_spec& spec) : zone_(spec.timezone) {
  if (!spec.schedule.empty()) {
    cron_ = dsl::cron_schedule::parse(spec.schedule);
  } else {
    auto delay = dsl::parse_go_duration(spec.interval);
    if (!delay || std::chrono::nanoseconds{*delay} < std::chrono::seconds{1})
      throw std::invalid_argument("invalid interval \"" + spec.interval + "\"");
    delay_ = std::chrono::nanoseconds{*delay};
  }
  excluded_days_ = read_exclusion_dates(spec.exclusion_dates).days;
}

std::optional<dsl::go_time_point> tick_schedule::next(dsl::go_time_point last) const {
  // Argo's `next` recurses past excluded days; this loops, and stops where robfig's cron finds
  // nothing.
  for (;;) {
    auto tick = next_unexcluded(last);
    if (!tick || !excluded(*tick))
      return tick;
    last = *tick;
  }
}

std::optional<dsl::go_time_point> tick_schedule::next_unexcluded(dsl::go_time_point last) const {
  if (!cron_) {
    auto fraction = last - std::chrono::floor<std::chrono::seconds>(last);
    return last + delay_ - fraction;
  }
  auto tick = cron_->next(std::chrono::floor<std::chrono::seconds>(last), zone_);
  if (!tick)
    return std::nullopt;
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(*tick);
}

bool tick_schedule::excluded(dsl::go_time_point tick) const {
  if (excluded_days_.empty())
    return false;
  auto shown = dsl::go_time_string(tick, zone_);
  if (!shown || shown->size() < 10)
    return false;
  // The tick's date on the calendar's wall clock: the first ten characters, YYYY-MM-DD.
  auto number = [&](std::size_t pos, std::size_t len) { return std::stoi(shown->substr(pos, len)); };
  std::chrono::year_month_day day{std::chrono::year{number(0, 4)},
                                  std::chrono::month{static_cast<unsigned>(number(5, 2))},
                                  std::chrono::day{static_cast<unsigned>(number(8, 2))}};
  for (const auto& excluded : excluded_days_)
    if (excluded == day)
      return true;
  return false;
}

} // namespace ganglion::calendar::detail
