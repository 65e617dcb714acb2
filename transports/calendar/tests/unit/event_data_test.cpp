// The calendar's event data, byte for byte as Argo's json.Marshal of CalendarEventData, and the
// Go time strings it holds.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion;
using namespace std::chrono;

namespace {

dsl::go_time_point at(int y, unsigned m, unsigned d, int h, int min, int s, long ns = 0) {
  return time_point_cast<nanoseconds>(sys_days{year{y} / month{m} / day{d}} + hours{h} +
                                      minutes{min} + seconds{s}) + nanoseconds{ns};
}

} // namespace

TEST(calendar_event_data, event_time_is_go_time_string_in_the_zone) {
  EXPECT_EQ(*dsl::go_time_string(at(2026, 12, 5, 12, 0, 0), ""), "2026-12-05 12:00:00 +0000 UTC");
  EXPECT_EQ(*dsl::go_time_string(at(2020, 10, 19, 22, 50, 0, 319200), "UTC"),
            "2020-10-19 22:50:00.0003192 +0000 UTC");
  EXPECT_EQ(*dsl::go_time_string(at(2026, 12, 5, 12, 0, 0), "America/New_York"),
            "2026-12-05 07:00:00 -0500 EST");
  EXPECT_EQ(*dsl::go_time_string(at(2026, 7, 1, 12, 0, 0, 5), "Europe/Berlin"),
            "2026-07-01 14:00:00.000000005 +0200 CEST");
  EXPECT_EQ(*dsl::go_time_string(at(2026, 7, 1, 12, 0, 0), "Asia/Kolkata"),
            "2026-07-01 17:30:00 +0530 IST");
  EXPECT_FALSE(dsl::go_time_string(at(2026, 7, 1, 12, 0, 0), "Mars/Olympus"));
}

TEST(calendar_event_data, go_time_strings_read_back_with_or_without_the_monotonic_suffix) {
  // The example of Argo's docs/eventsources/calendar-catch-up.md, as its ConfigMap holds it.
  EXPECT_EQ(*dsl::parse_go_time_string("2020-10-19 22:50:00.0003192 +0000 UTC m=+683.567066901"),
            at(2020, 10, 19, 22, 50, 0, 319200));
  EXPECT_EQ(*dsl::parse_go_time_string("2026-12-05 07:00:00 -0500 EST"), at(2026, 12, 5, 12, 0, 0));
  EXPECT_EQ(*dsl::parse_go_time_string("2026-07-01 17:30:00 +0530 IST"), at(2026, 7, 1, 12, 0, 0));
  EXPECT_FALSE(dsl::parse_go_time_string("2026-02-30 00:00:00 +0000 UTC"));
  EXPECT_FALSE(dsl::parse_go_time_string("2026-12-05T12:00:00Z"));
  EXPECT_FALSE(dsl::parse_go_time_string("2026-12-05 12:00:00."));
}

TEST(calendar_event_data, payload_is_argo_calendar_event_data) {
  EXPECT_EQ(*calendar::detail::calendar_event_data(at(2026, 12, 5, 12, 0, 0), "", {}),
            R"({"eventTime":"2026-12-05 12:00:00 +0000 UTC"})");
  EXPECT_EQ(*calendar::detail::calendar_event_data(at(2026, 12, 5, 12, 0, 0), "Europe/Paris",
                                                   {{"hello", "world"}, {"a", "<&>"}}),
            R"({"eventTime":"2026-12-05 13:00:00 +0100 CET","metadata":{"a":"\u003c\u0026\u003e","hello":"world"}})");
}

TEST(calendar_event_data, event_time_of_reads_argo_records_and_refuses_others) {
  EXPECT_EQ(*calendar::detail::event_time_of(
              R"({"eventTime":"2020-10-19 22:50:00.0003192 +0000 UTC m=+683.567066901","metadata":{"a":"b"}})"),
            at(2020, 10, 19, 22, 50, 0, 319200));
  EXPECT_FALSE(calendar::detail::event_time_of(R"({"metadata":{}})"));
  EXPECT_FALSE(calendar::detail::event_time_of("not json"));
  EXPECT_FALSE(calendar::detail::event_time_of(R"({"eventTime":17})"));
}
