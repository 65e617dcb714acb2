// The conformance suite, the state store: a round trip, deletion by an empty value, stores of
// one key applied in order, values up to max_value_bytes kept whole and larger ones refused,
// and values shared between replicas. Every bus driver with a state store passes it
// (bus_driver.hpp).

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "bus_driver.hpp"
#include "bus_probe.hpp"

namespace ganglion::test::bus_conformance {
namespace {

/// Stores and waits for the outcome: empty when stored, else the error.
std::string store(core::state_store& state, const std::string& key, std::string value) {
  auto done = std::make_shared<std::promise<std::string>>();
  auto outcome = done->get_future();
  state.store(key, std::move(value), [done](const std::string& error) { done->set_value(error); });
  if (outcome.wait_for(15s) != std::future_status::ready)
    return "no outcome within 15 s";
  return outcome.get();
}

TEST_P(bus_conformance, the_state_store_keeps_the_last_value_of_a_key_until_deleted) {
  GANGLION_REQUIRE(state_store);
  auto bus = driver().open("r1");
  auto& state = bus->state();
  EXPECT_EQ(state.load("sensor.a"), std::nullopt);
  EXPECT_EQ(store(state, "sensor.a", "held events"), "");
  EXPECT_EQ(state.load("sensor.a"), "held events");

  // Stores of one key apply in the order they were made, each reported once.
  std::atomic<int> done{0};
  std::mutex mutex;
  std::vector<std::string> errors;
  for (int i = 1; i <= 30; ++i)
    state.store("sensor.a", "value-" + std::to_string(i), [&](const std::string& error) {
      std::lock_guard guard{mutex};
      if (!error.empty())
        errors.push_back(error);
      ++done;
    });
  ASSERT_TRUE(test::eventually([&] { return done == 30; }, 15s)) << done << " of 30 reported";
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(state.load("sensor.a"), "value-30");

  EXPECT_EQ(store(state, "sensor.b", "kept"), "");
  EXPECT_EQ(store(state, "sensor.a", ""), "") << "an empty value deletes";
  EXPECT_EQ(state.load("sensor.a"), std::nullopt);
  EXPECT_EQ(state.load("sensor.b"), "kept") << "deleting one key leaves the others";
}

TEST_P(bus_conformance, the_state_store_takes_values_up_to_its_limit_and_refuses_larger) {
  GANGLION_REQUIRE(state_store);
  auto bus = driver().open("r1");
  auto& state = bus->state();
  auto limit = state.max_value_bytes();
  ASSERT_GE(limit, 64u * 1024) << "a sensor's unfinished events must fit";
  std::string largest(limit, 'x');
  largest.front() = '<';
  largest.back() = '>';
  ASSERT_EQ(store(state, "sensor.big", largest), "");
  EXPECT_TRUE(state.load("sensor.big") == largest) << "a value of max_value_bytes changed";
  EXPECT_NE(store(state, "sensor.big", std::string(limit + 1, 'y')), "")
    << "a value past max_value_bytes (" << limit << ") was accepted";
  EXPECT_TRUE(state.load("sensor.big") == largest) << "a refused store changed the value";
}

TEST_P(bus_conformance, replicas_share_the_state_store) {
  GANGLION_REQUIRE(replicas);
  GANGLION_REQUIRE(state_store);
  auto a = driver().open("r1");
  auto b = driver().open("r2");
  EXPECT_EQ(store(a->state(), "sensor.s", "from a"), "");
  EXPECT_EQ(b->state().load("sensor.s"), "from a");
  EXPECT_EQ(store(b->state(), "sensor.s", "from b"), "");
  EXPECT_EQ(a->state().load("sensor.s"), "from b");
  EXPECT_EQ(store(b->state(), "sensor.s", ""), "");
  EXPECT_EQ(a->state().load("sensor.s"), std::nullopt);
}

} // namespace
} // namespace ganglion::test::bus_conformance
