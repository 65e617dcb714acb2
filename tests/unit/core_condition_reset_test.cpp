#include <gtest/gtest.h>

#include "sensor/condition_reset.hpp"

using namespace ganglion;
using namespace std::chrono;

namespace {

system_clock::time_point utc(int y, unsigned m, unsigned d, int h, int min) {
  return sys_days{year{y} / month{m} / day{d}} + hours{h} + minutes{min};
}

core::condition_reset_clock clock_of(std::string cron, std::string zone = {}) {
  dsl::conditions_reset spec;
  spec.cron = std::move(cron);
  spec.timezone = std::move(zone);
  return core::condition_reset_clock{spec};
}

} // namespace

TEST(condition_reset_clock, utc_by_default) {
  auto c = clock_of("*/15 * * * *");
  EXPECT_EQ(c.next(utc(2026, 3, 1, 10, 7)), utc(2026, 3, 1, 10, 15));
}

TEST(condition_reset_clock, follows_the_zone_across_daylight_saving) {
  auto c = clock_of("0 9 * * *", "America/New_York");
  EXPECT_EQ(c.next(utc(2026, 7, 1, 12, 0)), utc(2026, 7, 1, 13, 0));  // 09:00 EDT
  EXPECT_EQ(c.next(utc(2026, 1, 15, 12, 0)), utc(2026, 1, 15, 14, 0)); // 09:00 EST
}

TEST(condition_reset_clock, unknown_zone_is_an_error) {
  EXPECT_THROW(clock_of("0 9 * * *", "Mars/Olympus"), std::runtime_error);
}
