#include <gtest/gtest.h>

#include "trigger/delivery_policy.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using core::rate_gate;
using core::retry_schedule;

TEST(retry_schedule, absent_strategy_means_a_single_attempt) {
  EXPECT_EQ(retry_schedule{std::nullopt}.attempts(), 1u);
}

TEST(retry_schedule, steps_count_every_attempt_and_zero_means_five) {
  dsl::backoff b;
  b.steps = 3;
  EXPECT_EQ(retry_schedule{b}.attempts(), 3u);
  b.steps = 0;
  EXPECT_EQ(retry_schedule{b}.attempts(), 5u);
  b.steps.reset();
  EXPECT_EQ(retry_schedule{b}.attempts(), 5u);
}

TEST(retry_schedule, delays_grow_by_factor_with_jitter_on_top) {
  dsl::backoff b;
  b.steps = 4;
  b.duration_ns = 100'000'000; // 100 ms
  b.factor = 2;
  b.jitter = 0.5;
  retry_schedule s{b};
  EXPECT_EQ(s.delay(0, 0.0), 100ms);
  EXPECT_EQ(s.delay(1, 0.0), 200ms);
  EXPECT_EQ(s.delay(2, 0.0), 400ms);
  EXPECT_EQ(s.delay(2, 0.5), 500ms); // 400 + 0.5 · 0.5 · 400
}

TEST(retry_schedule, argo_defaults_are_one_second_factor_one_jitter_one) {
  dsl::backoff b;
  b.steps = 2;
  retry_schedule s{b};
  EXPECT_EQ(s.delay(0, 0.0), 1s);
  EXPECT_EQ(s.delay(3, 0.0), 1s);
  EXPECT_EQ(s.delay(0, 0.5), 1500ms);
}

TEST(rate_gate, never_admits_more_than_the_limit_in_any_window) {
  dsl::rate_limit spec;
  spec.unit = "Minute";
  spec.requests_per_unit = 3;
  auto gate = rate_gate::from(spec);
  auto t0 = rate_gate::clock::time_point{} + 1h;
  EXPECT_FALSE(gate.try_admit(t0));
  EXPECT_FALSE(gate.try_admit(t0 + 1s));
  EXPECT_FALSE(gate.try_admit(t0 + 2s));
  auto wait = gate.try_admit(t0 + 3s);
  ASSERT_TRUE(wait);
  EXPECT_EQ(*wait, 57s);
  // After a long idle period there is no burst beyond the limit (Argo lets 10 more through).
  auto later = t0 + 10min;
  int admitted = 0;
  for (int i = 0; i < 20; ++i)
    admitted += !gate.try_admit(later + std::chrono::milliseconds(i)).has_value();
  EXPECT_EQ(admitted, 3);
}

TEST(rate_gate, sliding_window_property_holds_for_an_irregular_stream) {
  rate_gate gate{5, 1s};
  std::vector<rate_gate::clock::time_point> admitted;
  auto t = rate_gate::clock::time_point{} + 1h;
  for (int i = 0; i < 2000; ++i) {
    t += std::chrono::milliseconds((i * 37) % 91);
    if (!gate.try_admit(t))
      admitted.push_back(t);
  }
  ASSERT_GT(admitted.size(), 20u);
  for (std::size_t i = 5; i < admitted.size(); ++i)
    EXPECT_GE(admitted[i] - admitted[i - 5], 1s) << "6 admissions within one second at " << i;
}

TEST(rate_gate, no_limit_admits_everything) {
  auto gate = rate_gate::from(std::nullopt);
  for (int i = 0; i < 1000; ++i)
    EXPECT_FALSE(gate.try_admit(rate_gate::clock::now()));
}

TEST(retry_schedule, max_duration_caps_every_wait) {
  dsl::backoff b;
  b.steps = 6;
  b.duration_ns = 1'000'000'000;
  b.factor = 10;
  b.jitter = 0;
  b.max_duration_ns = 5'000'000'000;
  retry_schedule s{b};
  EXPECT_EQ(s.delay(0, 0.0), 1s);
  EXPECT_EQ(s.delay(1, 0.0), 5s);
  EXPECT_EQ(s.delay(4, 0.9), 5s);
}
