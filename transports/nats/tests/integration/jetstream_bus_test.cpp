// The JetStream bus driver against a real nats-server -js: what is particular to it (prepared
// consumers, redelivery after AckWait, server-side dedup by event id, a server that is down).
// What every bus driver does is checked by tests/integration/bus_conformance.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "ganglion/nats/jetstream_bus.hpp"
#include "test_support.hpp"

namespace ganglion::nats {
namespace {

using namespace std::chrono_literals;

/// What one publish came to.
struct outcome {
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<core::publish_status> status;
  std::string error;

  core::publish_status wait() {
    std::unique_lock lock{mutex};
    changed.wait_for(lock, 15s, [&] { return status.has_value(); });
    return status.value_or(core::publish_status::stopped);
  }
};

core::publish_status publish(core::remote_bus& bus, const std::string& subject,
                             const std::string& id, std::string* error = nullptr) {
  core::event e;
  e.id = id;
  e.source = "hooks";
  e.type = "webhook";
  e.subject = subject;
  e.data = R"({"id":")" + id + R"("})";
  auto result = std::make_shared<outcome>();
  bus.publish(std::move(e), [result](core::publish_status s, const std::string& why) {
    std::lock_guard guard{result->mutex};
    result->status = s;
    result->error = why;
    result->changed.notify_all();
  });
  auto status = result->wait();
  if (error)
    *error = result->error;
  return status;
}

/// Collects what a subscription delivers.
struct inbox {
  std::mutex mutex;
  std::vector<core::event_ptr> events;

  core::delivery_handler handler() {
    return [this](std::vector<core::event_ptr>&& batch) {
      std::lock_guard guard{mutex};
      for (auto& e : batch)
        events.push_back(std::move(e));
    };
  }

  std::set<std::string> ids() {
    std::lock_guard guard{mutex};
    std::set<std::string> out;
    for (const auto& e : events)
      out.insert(e->id);
    return out;
  }

  /// How often event `id` was delivered.
  std::size_t count(const std::string& id) {
    std::lock_guard guard{mutex};
    std::size_t n = 0;
    for (const auto& e : events)
      n += e->id == id;
    return n;
  }

  /// Waits until `count` events arrived in all.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout) {
    return test::eventually(
      [&] {
        std::lock_guard guard{mutex};
        return events.size() >= count;
      },
      timeout);
  }

  /// Waits until event `id` was delivered `times` times. A consumer delivers in stream order,
  /// so what was published before `id` and did not come by then is not coming.
  bool wait_for_id(const std::string& id, std::size_t times = 1) {
    return test::eventually([&] { return count(id) >= times; });
  }
};

class jetstream_bus_test : public ::testing::Test {
protected:
  std::shared_ptr<core::remote_bus> open(std::chrono::milliseconds ack_wait = 1000ms) {
    nats::bus_spec spec;
    spec.url = server.url();
    jetstream_options options;
    options.replica_id = "test";
    options.ack_wait = ack_wait;
    options.lease_ttl = 1500ms;
    options.lease_tick = 300ms;
    options.publish_timeout = 1500ms;
    return make_jetstream_bus(spec, nullptr, options);
  }

  test::nats_server server;
};

TEST_F(jetstream_bus_test, a_prepared_sensor_gets_what_was_published_before_a_replica_ran_it) {
  auto bus = open();
  bus->prepare("s", {{"hooks", "a"}});
  ASSERT_EQ(publish(*bus, "a", "waiting"), core::publish_status::accepted);
  inbox got;
  auto sub = bus->subscribe("s", {{"hooks", "a"}}, got.handler());
  ASSERT_TRUE(got.wait_for(1, 5s));
  EXPECT_EQ(got.ids(), (std::set<std::string>{"waiting"}));
}

TEST_F(jetstream_bus_test, unacknowledged_events_come_again_and_acknowledged_ones_do_not) {
  auto bus = open(1000ms);
  inbox first;
  auto sub = bus->subscribe("s", {{"hooks", "a"}}, first.handler());
  for (auto id : {"e1", "e2", "e3"})
    ASSERT_EQ(publish(*bus, "a", id), core::publish_status::accepted);
  ASSERT_TRUE(first.wait_for(3, 5s));
  std::vector<std::uint64_t> acked;
  {
    std::lock_guard guard{first.mutex};
    for (const auto& e : first.events)
      if (e->id != "e2")
        acked.push_back(e->sequence);
  }
  sub->acknowledge(acked);
  sub.reset(); // as if the replica died holding e2
  inbox second;
  auto again = bus->subscribe("s", {{"hooks", "a"}}, second.handler());
  ASSERT_EQ(publish(*bus, "a", "e4"), core::publish_status::accepted);
  ASSERT_TRUE(second.wait_for(2, 10s)) << "e2 was not delivered again";
  // The second subscriber acknowledges nothing: e2 coming once more marks an AckWait that
  // passed since, after which e1 and e3 would have come too had their acks been lost.
  ASSERT_TRUE(second.wait_for_id("e2", 2)) << "no second AckWait";
  EXPECT_EQ(second.ids(), (std::set<std::string>{"e2", "e4"}));
}

TEST_F(jetstream_bus_test, the_server_drops_a_second_publish_of_the_same_event_id) {
  auto bus = open();
  inbox got;
  auto sub = bus->subscribe("s", {{"hooks", "a"}}, got.handler());
  ASSERT_EQ(publish(*bus, "a", "same"), core::publish_status::accepted);
  ASSERT_EQ(publish(*bus, "a", "same"), core::publish_status::accepted);
  ASSERT_EQ(publish(*bus, "a", "next"), core::publish_status::accepted);
  ASSERT_TRUE(got.wait_for_id("next"));
  EXPECT_EQ(got.count("same"), 1u);
  std::lock_guard guard{got.mutex};
  EXPECT_EQ(got.events.size(), 2u);
}

TEST_F(jetstream_bus_test, a_publish_while_the_server_is_down_fails_and_is_never_accepted) {
  auto bus = open();
  ASSERT_EQ(publish(*bus, "a", "up"), core::publish_status::accepted);
  server.stop();
  std::string error;
  auto status = publish(*bus, "a", "down", &error);
  EXPECT_NE(status, core::publish_status::accepted);
  EXPECT_FALSE(error.empty() && status == core::publish_status::failed);
  server.start();
  auto deadline = std::chrono::steady_clock::now() + 20s;
  core::publish_status again = core::publish_status::failed;
  while (again != core::publish_status::accepted && std::chrono::steady_clock::now() < deadline)
    again = publish(*bus, "a", "back");
  EXPECT_EQ(again, core::publish_status::accepted) << "no reconnection after the restart";
}

} // namespace
} // namespace ganglion::nats
