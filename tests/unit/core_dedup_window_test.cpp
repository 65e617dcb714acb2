#include <gtest/gtest.h>

#include "sensor/dedup_window.hpp"

namespace ganglion::core {
namespace {

using namespace std::chrono_literals;

TEST(dedup_window, an_id_seen_within_the_window_is_a_duplicate) {
  dedup_window w(1000ms, 1024);
  auto t = dedup_window::clock::time_point{} + 1h;
  EXPECT_FALSE(w.seen_before("a", t));
  EXPECT_TRUE(w.seen_before("a", t + 10ms));
  EXPECT_FALSE(w.seen_before("b", t + 10ms));
  // Still remembered just before a full window has passed, across a generation change.
  EXPECT_TRUE(w.seen_before("a", t + 999ms));
  EXPECT_TRUE(w.seen_before("b", t + 1005ms));
}

TEST(dedup_window, ids_are_forgotten_after_at_most_twice_the_window) {
  dedup_window w(1000ms, 1024);
  auto t = dedup_window::clock::time_point{} + 1h;
  EXPECT_FALSE(w.seen_before("a", t));
  EXPECT_FALSE(w.seen_before("a", t + 2001ms));
  // After a long idle gap nothing old survives either.
  EXPECT_FALSE(w.seen_before("x", t + 2002ms));
  EXPECT_FALSE(w.seen_before("a", t + 10000ms));
  EXPECT_FALSE(w.seen_before("x", t + 10001ms));
}

TEST(dedup_window, capacity_bounds_what_is_remembered_oldest_first) {
  dedup_window w(1h, 4);
  auto t = dedup_window::clock::time_point{} + 1h;
  for (auto id : {"a", "b", "c", "d", "e"})
    EXPECT_FALSE(w.seen_before(id, t));
  EXPECT_LE(w.size(), 4u);
  EXPECT_FALSE(w.seen_before("a", t));
  EXPECT_TRUE(w.seen_before("e", t));
}

TEST(dedup_window, empty_ids_and_a_zero_window_never_deduplicate) {
  dedup_window w(1000ms, 16);
  auto t = dedup_window::clock::time_point{} + 1h;
  EXPECT_FALSE(w.seen_before("", t));
  EXPECT_FALSE(w.seen_before("", t));
  dedup_window off(0ms, 16);
  EXPECT_FALSE(off.seen_before("a", t));
  EXPECT_FALSE(off.seen_before("a", t));
}

} // namespace
} // namespace ganglion::core

TEST(dedup_window, ids_remembered_from_before_a_restart_count_as_seen) {
  ganglion::core::dedup_window window{std::chrono::milliseconds(60000), 1024};
  window.remember(ganglion::core::dedup_window::fingerprint_of("restored"));
  auto now = ganglion::core::dedup_window::clock::now();
  EXPECT_TRUE(window.seen_before("restored", now));
  EXPECT_FALSE(window.seen_before("new", now));
}
