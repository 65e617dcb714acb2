// Time filters: Argo's filter_time_test.go windows plus zones, DST and midnight wrap-around.

#include <gtest/gtest.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/filter/time_filter.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::compiled_time_filter;
using ganglion::dsl::event_view;
using ganglion::dsl::filter_outcome;
using ganglion::dsl::time_filter;

filter_outcome at(const compiled_time_filter& f, std::string_view time) {
  event_view e;
  e.time = time;
  return f.evaluate(e);
}

bool passes(const compiled_time_filter& f, std::string_view time) {
  auto out = at(f, time);
  EXPECT_EQ(out.error, "") << time;
  return out.pass;
}

// The six event times of filter_time_test.go.
constexpr std::string_view argo_times[] = {
  "2024-05-01T00:00:00Z", "2024-05-01T04:05:06Z", "2024-05-01T08:09:10Z",
  "2024-05-01T12:13:14Z", "2024-05-01T16:17:18Z", "2024-05-01T20:21:22Z",
};

TEST(time_filter, start_less_than_stop) {
  compiled_time_filter f(time_filter{"08:09:10", "16:17:18", ""});
  const bool expected[] = {false, false, true, true, false, false};
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(passes(f, argo_times[i]), expected[i]) << argo_times[i];
}

TEST(time_filter, stop_less_than_start_wraps_midnight) {
  compiled_time_filter f(time_filter{"16:17:18", "08:09:10", ""});
  const bool expected[] = {true, true, false, false, true, true};
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(passes(f, argo_times[i]), expected[i]) << argo_times[i];
}

TEST(time_filter, bounds_are_start_inclusive_stop_exclusive_to_the_nanosecond) {
  compiled_time_filter f(time_filter{"09:00:00", "17:00:00", "UTC"});
  EXPECT_TRUE(passes(f, "2024-05-01T09:00:00Z"));
  EXPECT_FALSE(passes(f, "2024-05-01T08:59:59.999999999Z"));
  EXPECT_TRUE(passes(f, "2024-05-01T16:59:59.5Z"));
  EXPECT_FALSE(passes(f, "2024-05-01T17:00:00Z"));
}

TEST(time_filter, new_york_in_summer) {
  compiled_time_filter f(time_filter{"09:00:00", "17:00:00", "America/New_York"});
  EXPECT_TRUE(passes(f, "2024-07-15T14:00:00Z"));       // 10:00 EDT
  EXPECT_FALSE(passes(f, "2024-07-15T12:59:59Z"));      // 08:59:59 EDT, too early
  EXPECT_FALSE(passes(f, "2024-07-15T21:00:00Z"));      // 17:00 EDT, too late
  EXPECT_TRUE(passes(f, "2024-07-15T10:00:00-04:00"));  // an offset in the event time
  EXPECT_TRUE(passes(f, "2024-07-15t14:00:00z"));       // lower-case RFC 3339
  EXPECT_TRUE(passes(f, "2024-07-15T13:30:00Z"));       // 09:30 EDT
}

TEST(time_filter, new_york_in_winter_is_an_hour_later_in_utc) {
  compiled_time_filter f(time_filter{"09:00:00", "17:00:00", "America/New_York"});
  EXPECT_FALSE(passes(f, "2024-01-15T13:30:00Z")); // 08:30 EST
  EXPECT_TRUE(passes(f, "2024-01-15T14:00:00Z"));  // 09:00 EST
  EXPECT_TRUE(passes(f, "2024-01-15T21:59:59Z"));  // 16:59:59 EST
  EXPECT_FALSE(passes(f, "2024-01-15T22:00:00Z")); // 17:00 EST
}

TEST(time_filter, new_york_on_the_spring_forward_day) {
  compiled_time_filter f(time_filter{"01:00:00", "03:30:00", "America/New_York"});
  EXPECT_TRUE(passes(f, "2024-03-10T06:00:00Z"));  // 01:00 EST
  EXPECT_TRUE(passes(f, "2024-03-10T07:15:00Z"));  // 03:15 EDT
  EXPECT_FALSE(passes(f, "2024-03-10T07:45:00Z")); // 03:45 EDT
  EXPECT_FALSE(passes(f, "2024-03-10T05:59:59Z")); // 00:59:59 EST
}

TEST(time_filter, london_follows_british_summer_time) {
  compiled_time_filter f(time_filter{"09:00:00", "10:00:00", "Europe/London"});
  EXPECT_TRUE(passes(f, "2024-07-01T08:30:00Z"));  // 09:30 BST
  EXPECT_FALSE(passes(f, "2024-12-01T08:30:00Z")); // 08:30 GMT
  EXPECT_TRUE(passes(f, "2024-12-01T09:30:00Z"));  // 09:30 GMT
}

TEST(time_filter, tokyo_uses_the_local_date) {
  compiled_time_filter f(time_filter{"08:00:00", "09:00:00", "Asia/Tokyo"});
  EXPECT_TRUE(passes(f, "2024-03-10T23:30:00Z"));  // 08:30 JST on the 11th
  EXPECT_FALSE(passes(f, "2024-03-10T08:30:00Z")); // 17:30 JST
}

TEST(time_filter, overnight_window_in_a_zone) {
  compiled_time_filter f(time_filter{"22:00:00", "06:00:00", "America/New_York"});
  EXPECT_TRUE(passes(f, "2024-07-16T03:00:00Z"));  // 23:00 EDT on the 15th
  EXPECT_TRUE(passes(f, "2024-07-16T09:00:00Z"));  // 05:00 EDT
  EXPECT_FALSE(passes(f, "2024-07-16T12:00:00Z")); // 08:00 EDT
  EXPECT_FALSE(passes(f, "2024-07-16T01:59:59Z")); // 21:59:59 EDT
}

TEST(time_filter, invalid_settings_are_load_errors) {
  EXPECT_THROW(compiled_time_filter(time_filter{"09:00:00", "17:00:00", "Mars/Olympus"}),
               compile_error);
  EXPECT_THROW(compiled_time_filter(time_filter{"24:00:00", "17:00:00", ""}), compile_error);
  EXPECT_THROW(compiled_time_filter(time_filter{"09:00", "17:00:00", ""}), compile_error);
  EXPECT_THROW(compiled_time_filter(time_filter{"09:00:00", "17:60:00", ""}), compile_error);
  EXPECT_THROW(compiled_time_filter(time_filter{"09:00:00x", "17:00:00", ""}), compile_error);
  EXPECT_THROW(compiled_time_filter(time_filter{"", "17:00:00", ""}), compile_error);
  EXPECT_NO_THROW(compiled_time_filter(time_filter{"9:00:00", "17:00:00", ""}));
}

TEST(time_filter, an_unparseable_event_time_is_an_error) {
  compiled_time_filter f(time_filter{"09:00:00", "17:00:00", ""});
  auto out = at(f, "yesterday");
  EXPECT_FALSE(out.pass);
  EXPECT_EQ(out.error, "time filter error (event time 'yesterday' is not RFC 3339)");
  EXPECT_FALSE(at(f, "").error.empty());
}

TEST(time_filter, describe_names_window_and_zone) {
  EXPECT_EQ(compiled_time_filter(time_filter{"09:00:00", "17:00:00", ""}).describe(),
            "time 09:00:00-17:00:00 UTC");
  EXPECT_EQ(compiled_time_filter(time_filter{"22:00:00", "06:00:00", "Asia/Tokyo"}).describe(),
            "time 22:00:00-06:00:00 Asia/Tokyo");
}

} // namespace
