#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "ganglion/core/event.hpp"

namespace ganglion::core {
namespace {

using namespace std::chrono;

TEST(event, rfc3339_has_nanoseconds_and_follows_the_second) {
  sys_seconds second{seconds{1796083938}}; // 2026-12-01T00:12:18Z
  EXPECT_EQ(to_rfc3339(second + nanoseconds{123456789}), "2026-12-01T00:12:18.123456789Z");
  EXPECT_EQ(to_rfc3339(second + nanoseconds{5}), "2026-12-01T00:12:18.000000005Z");
  EXPECT_EQ(to_rfc3339(second + seconds{1}), "2026-12-01T00:12:19.000000000Z");
  EXPECT_EQ(to_rfc3339(second - seconds{86400}), "2026-11-30T00:12:18.000000000Z");
}

TEST(event, ids_are_uuid4_hex_and_distinct) {
  std::set<std::string> seen;
  std::regex uuid4("[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}");
  for (int i = 0; i < 1000; ++i) {
    auto id = new_event_id();
    ASSERT_TRUE(std::regex_match(id, uuid4)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

} // namespace
} // namespace ganglion::core
