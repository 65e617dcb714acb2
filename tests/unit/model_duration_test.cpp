// Go duration parsing (time.ParseDuration), used by retryStrategy, calendar intervals and more.

#include <gtest/gtest.h>

#include "ganglion/dsl/duration.hpp"

using ganglion::dsl::parse_go_duration;

namespace {

constexpr std::int64_t ms = 1'000'000;
constexpr std::int64_t s = 1'000 * ms;

} // namespace

TEST(model_duration, go_examples_parse_to_nanoseconds) {
  EXPECT_EQ(parse_go_duration("0"), 0);
  EXPECT_EQ(parse_go_duration("300ms"), 300 * ms);
  EXPECT_EQ(parse_go_duration("-1.5h"), -5400 * s);
  EXPECT_EQ(parse_go_duration("2h45m"), (2 * 3600 + 45 * 60) * s);
  EXPECT_EQ(parse_go_duration("1m30s"), 90 * s);
  EXPECT_EQ(parse_go_duration("+10s"), 10 * s);
  EXPECT_EQ(parse_go_duration(".5s"), 500 * ms);
  EXPECT_EQ(parse_go_duration("1.s"), 1 * s);
  EXPECT_EQ(parse_go_duration("1.000000001s"), s + 1);
  EXPECT_EQ(parse_go_duration("7ns"), 7);
  EXPECT_EQ(parse_go_duration("3us"), 3000);
  EXPECT_EQ(parse_go_duration("3\xC2\xB5s"), 3000);
  EXPECT_EQ(parse_go_duration("3\xCE\xBCs"), 3000);
  EXPECT_EQ(parse_go_duration("2562047h47m16.854775807s"), INT64_MAX);
}

TEST(model_duration, bad_syntax_and_overflow_are_rejected) {
  for (const char* bad : {"", "1", "10", "s", "-", ".", ".s", "1x", "1 s", "1h ", "1.2.3s",
                          "2562047h47m16.854775808s", "9999999999999999999ns", "1d"})
    EXPECT_FALSE(parse_go_duration(bad)) << bad;
}
