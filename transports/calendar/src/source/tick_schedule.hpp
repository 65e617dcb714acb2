#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/calendar/spec.hpp"
#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/go/go_time.hpp"

namespace ganglion::calendar::detail {

/// When a calendar event ticks, as Argo's calendar source computes it: the cron `schedule` on
/// the wall clock of `timezone` (a `TZ=` prefix of the schedule wins), else robfig's
/// ConstantDelaySchedule of `interval` (the delay minus the last tick's fraction of a second),
/// skipping every tick that falls on an excluded day (year, month and day in `timezone`).
class tick_schedule {
public:
  /// From a spec its check step passed. Throws std::invalid_argument otherwise.
  explicit tick_schedule(const event_spec& spec);

  /// The first tick strictly after `last`; nullopt when there is none (a cron that matches
  /// nothing within five years).
  std::optional<dsl::go_time_point> next(dsl::go_time_point last) const;

  /// The zone the ticks are shown in (`timezone`; empty: UTC).
  const std::string& time_zone() const noexcept { return zone_; }

private:
  std::optional<dsl::go_time_point> next_unexcluded(dsl::go_time_point last) const;
  bool excluded(dsl::go_time_point tick) const;

  std::optional<dsl::cron_schedule> cron_;
  std::chrono::nanoseconds delay_{0};
  std::string zone_;
  std::vector<std::chrono::year_month_day> excluded_days_;
};

} // namespace ganglion::calendar::detail
