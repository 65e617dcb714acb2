// The robfig/cron schedule syntax (as Argo Events configures it) and next-time evaluation.

#include <gtest/gtest.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/cron.hpp"

using namespace ganglion::dsl;
using namespace std::chrono;

namespace {

sys_seconds at(int y, unsigned mo, unsigned d, int h, int mi, int s = 0) {
  return sys_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi} + seconds{s};
}

std::size_t error_offset(const std::string& text) {
  try {
    cron_schedule::parse(text);
  } catch (const compile_error& e) {
    return e.offset();
  }
  ADD_FAILURE() << "\"" << text << "\" parsed";
  return 0;
}

std::string error_of(const std::string& text, bool descriptors = false) {
  try {
    cron_schedule::parse(text, descriptors);
  } catch (const compile_error& e) {
    return e.what();
  }
  return "parsed";
}

} // namespace

TEST(model_cron, five_field_syntax_with_lists_ranges_steps_and_names) {
  for (const char* ok : {"* * * * *", "*/5 * * * *", "0 9-17 * * MON-FRI", "0,30 */2 1,15 * *",
                         "15 10 ? jan,Jul sun", "0 0 1-31/2 JAN-DEC/3 *", "59 23 31 12 6",
                         "5/10 * * * *", "  0   1  *  *  *  ", "CRON_TZ=Europe/Paris 0 6 * * *",
                         "TZ=UTC 0 6 * * *"})
    EXPECT_NO_THROW(cron_schedule::parse(ok)) << ok;
  EXPECT_EQ(cron_schedule::parse("TZ=Asia/Tokyo 0 6 * * *").location(), "Asia/Tokyo");
}

TEST(model_cron, errors_name_the_problem_and_its_offset) {
  EXPECT_EQ(error_of("* * * *"), "expected exactly 5 fields, found 4: [* * * *]");
  EXPECT_EQ(error_of("0 0 0 * *"), "beginning of range (0) below minimum (1): 0");
  EXPECT_EQ(error_of("* 24 * * *"), "end of range (24) above maximum (23): 24");
  EXPECT_EQ(error_of("* * * * 7"), "end of range (7) above maximum (6): 7");
  EXPECT_EQ(error_of("5-1 * * * *"), "beginning of range (5) beyond end of range (1): 5-1");
  EXPECT_EQ(error_of("*/0 * * * *"), "step of range should be a positive number: */0");
  EXPECT_EQ(error_of("1-2-3 * * * *"), "too many hyphens: 1-2-3");
  EXPECT_EQ(error_of("*/2/3 * * * *"), "too many slashes: */2/3");
  EXPECT_EQ(error_of("* * * FOO *"), "failed to parse int from FOO");
  EXPECT_EQ(error_of(""), "empty spec string");
  EXPECT_EQ(error_of("TZ=No/Where * * * * *"), "provided bad location No/Where");
  EXPECT_EQ(error_offset("0 9 * * 1,8"), 10u);
  EXPECT_EQ(error_offset("0 99 * * *"), 2u);
  EXPECT_EQ(error_offset("* * * * * *"), 10u);
}

TEST(model_cron, descriptors_are_rejected_unless_asked_for) {
  EXPECT_EQ(error_of("@hourly"), "parser does not accept descriptors: @hourly");
  for (const char* ok : {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight",
                         "@hourly", "@every 1h30m"})
    EXPECT_NO_THROW(cron_schedule::parse(ok, true)) << ok;
  EXPECT_EQ(error_of("@every 5 minutes", true), "failed to parse duration @every 5 minutes");
  EXPECT_EQ(error_of("@fortnightly", true), "unrecognized descriptor: @fortnightly");
  EXPECT_EQ(cron_schedule::parse("@every 90s", true).every(), seconds{90});
  EXPECT_EQ(cron_schedule::parse("@every 10ms", true).every(), seconds{1});
}

TEST(model_cron, next_finds_the_following_match) {
  auto quarter = cron_schedule::parse("*/15 * * * *");
  EXPECT_EQ(quarter.next(at(2024, 5, 17, 10, 7, 30)), at(2024, 5, 17, 10, 15));
  EXPECT_EQ(quarter.next(at(2024, 5, 17, 10, 15)), at(2024, 5, 17, 10, 30));
  EXPECT_EQ(quarter.next(at(2024, 12, 31, 23, 59)), at(2025, 1, 1, 0, 0));
  // 2024-05-17 is a Friday: the next Monday 09:00 is the 20th.
  EXPECT_EQ(cron_schedule::parse("0 9 * * MON").next(at(2024, 5, 17, 12, 0)),
            at(2024, 5, 20, 9, 0));
  EXPECT_EQ(cron_schedule::parse("0 0 29 2 *").next(at(2023, 3, 1, 0, 0)), at(2024, 2, 29, 0, 0));
  EXPECT_EQ(cron_schedule::parse("@every 90s", true).next(at(2024, 1, 1, 0, 0)),
            at(2024, 1, 1, 0, 1, 30));
  EXPECT_EQ(cron_schedule::parse("@weekly", true).next(at(2024, 5, 17, 12, 0)),
            at(2024, 5, 19, 0, 0));
}

TEST(model_cron, day_of_month_and_day_of_week_combine_like_robfig) {
  // Both restricted: either matches (the 13th, or any Friday).
  auto either = cron_schedule::parse("0 0 13 * FRI");
  EXPECT_EQ(either.next(at(2024, 5, 1, 0, 0)), at(2024, 5, 3, 0, 0));
  EXPECT_EQ(either.next(at(2024, 5, 10, 0, 0)), at(2024, 5, 13, 0, 0));
  // One of them starred: both must match.
  EXPECT_EQ(cron_schedule::parse("0 0 * * FRI").next(at(2024, 5, 10, 0, 0)),
            at(2024, 5, 17, 0, 0));
}

TEST(model_cron, impossible_dates_have_no_next_time) {
  EXPECT_FALSE(cron_schedule::parse("0 0 30 2 *").next(at(2024, 1, 1, 0, 0)));
}
