// When a calendar ticks: robfig's schedules as Argo runs them, on a zone's wall clock across
// daylight-saving changes, with exclusion dates.

#include <gtest/gtest.h>

#include "source/tick_schedule.hpp"

using namespace ganglion;
using namespace std::chrono;
using calendar::detail::tick_schedule;

namespace {

dsl::go_time_point utc(int y, unsigned m, unsigned d, int h, int min, int s, long ns = 0) {
  return time_point_cast<nanoseconds>(sys_days{year{y} / month{m} / day{d}} + hours{h} +
                                      minutes{min} + seconds{s}) + nanoseconds{ns};
}

tick_schedule schedule(std::string cron, std::string zone = {}, std::vector<std::string> ex = {}) {
  calendar::event_spec spec;
  spec.schedule = std::move(cron);
  spec.timezone = std::move(zone);
  spec.exclusion_dates = std::move(ex);
  return tick_schedule{spec};
}

tick_schedule every(std::string interval) {
  calendar::event_spec spec;
  spec.interval = std::move(interval);
  return tick_schedule{spec};
}

std::string shown(dsl::go_time_point t, const std::string& zone) {
  return *dsl::go_time_string(t, zone);
}

} // namespace

TEST(calendar_tick_schedule, interval_ticks_snap_to_whole_seconds_as_robfig_constant_delay) {
  auto s = every("10s");
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 11, 0, 0, 300'000'000)), utc(2026, 12, 5, 11, 0, 10));
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 11, 0, 10)), utc(2026, 12, 5, 11, 0, 20));
  // ConstantDelaySchedule.Next(t) = t + delay - t's nanoseconds: 1.5s lands on .5, then whole.
  auto odd = every("1.5s");
  auto first = *odd.next(utc(2026, 12, 5, 11, 0, 0));
  EXPECT_EQ(first, utc(2026, 12, 5, 11, 0, 1, 500'000'000));
  EXPECT_EQ(*odd.next(first), utc(2026, 12, 5, 11, 0, 2, 500'000'000));
}

TEST(calendar_tick_schedule, cron_ticks_on_the_minute_after_the_last) {
  auto s = schedule("*/15 * * * *");
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 11, 0, 0)), utc(2026, 12, 5, 11, 15, 0));
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 11, 14, 59, 999'999'999)), utc(2026, 12, 5, 11, 15, 0));
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 23, 50, 0)), utc(2026, 12, 6, 0, 0, 0));
  EXPECT_FALSE(schedule("0 0 30 2 *").next(utc(2026, 12, 5, 0, 0, 0)));
}

TEST(calendar_tick_schedule, spring_forward_skips_the_hour_that_does_not_exist) {
  // 2026-03-08 02:00 EST becomes 03:00 EDT in New York: 02:30 does not happen that day.
  auto s = schedule("30 2 * * *", "America/New_York");
  auto tick = *s.next(utc(2026, 3, 7, 8, 0, 0)); // 03:00 EST on the 7th
  EXPECT_EQ(shown(tick, "America/New_York"), "2026-03-09 02:30:00 -0400 EDT");
  // Every hour still ticks once a wall-clock hour: 01:00 EST, then 03:00 EDT.
  auto hourly = schedule("0 * * * *", "America/New_York");
  auto one = *hourly.next(utc(2026, 3, 8, 5, 30, 0)); // 00:30 EST
  EXPECT_EQ(shown(one, "America/New_York"), "2026-03-08 01:00:00 -0500 EST");
  EXPECT_EQ(shown(*hourly.next(one), "America/New_York"), "2026-03-08 03:00:00 -0400 EDT");
}

TEST(calendar_tick_schedule, fall_back_ticks_twice_in_the_repeated_hour) {
  // 2026-11-01 02:00 EDT becomes 01:00 EST: 01:30 happens twice, and robfig fires both.
  auto s = schedule("30 1 * * *", "America/New_York");
  auto first = *s.next(utc(2026, 10, 31, 16, 0, 0));
  EXPECT_EQ(shown(first, "America/New_York"), "2026-11-01 01:30:00 -0400 EDT");
  auto second = *s.next(first);
  EXPECT_EQ(shown(second, "America/New_York"), "2026-11-01 01:30:00 -0500 EST");
  EXPECT_EQ(second - first, hours{1});
  EXPECT_EQ(shown(*s.next(second), "America/New_York"), "2026-11-02 01:30:00 -0500 EST");
}

TEST(calendar_tick_schedule, a_tz_prefix_of_the_schedule_wins_over_timezone) {
  auto s = schedule("TZ=Asia/Tokyo 0 9 * * *", "America/New_York");
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 0, 0, 0)), utc(2026, 12, 6, 0, 0, 0)); // 09:00 JST
}

TEST(calendar_tick_schedule, excluded_days_are_skipped_by_the_date_in_the_zone) {
  auto s = schedule("0 12 * * *", "", {"EXDATE:20261206T230000Z,20261207T000000Z"});
  EXPECT_EQ(*s.next(utc(2026, 12, 5, 13, 0, 0)), utc(2026, 12, 8, 12, 0, 0));
  // 01:00 in Tokyo is 16:00 UTC the day before: the Tokyo date is what counts.
  auto tokyo = schedule("0 1 * * *", "Asia/Tokyo", {"EXDATE:20261207T000000Z", "no prefix"});
  auto tick = *tokyo.next(utc(2026, 12, 5, 17, 0, 0)); // 02:00 JST on the 6th
  EXPECT_EQ(shown(tick, "Asia/Tokyo"), "2026-12-08 01:00:00 +0900 JST");
  auto interval = every("1h");
  EXPECT_EQ(*interval.next(utc(2026, 12, 6, 23, 30, 0)), utc(2026, 12, 7, 0, 30, 0));
}
