// The Go-compatible pieces of a kafka event's data: Go's time.Time text and base64.

#include <gtest/gtest.h>

#include "ganglion/kafka/internal/event_data.hpp"

using namespace ganglion;

TEST(kafka_event_data, go_time_and_base64) {
  using kafka::detail::base64;
  using kafka::detail::go_time_string;
  EXPECT_EQ(go_time_string(0), "1970-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_time_string(1700000000120), "2023-11-14 22:13:20.12 +0000 UTC");
  EXPECT_EQ(go_time_string(-1), "0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_time_string(951782400001), "2000-02-29 00:00:00.001 +0000 UTC");
  // Any int64 a broker sends, without overflow (found by kafka_event_data_fuzz under UBSan).
  EXPECT_EQ(go_time_string(-62198755200000), "-0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_time_string(-1001), "1969-12-31 23:59:58.999 +0000 UTC");
  EXPECT_FALSE(go_time_string(INT64_MIN).empty());
  EXPECT_FALSE(go_time_string(INT64_MAX).empty());
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
}
