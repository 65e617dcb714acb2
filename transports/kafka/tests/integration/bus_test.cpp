// kafka::make_kafka_bus against librdkafka's mock cluster: what is particular to the Kafka bus
// driver (records on the wire, where a new sensor starts, a cluster that is down, its
// configuration). What every bus driver does is checked by tests/integration/bus_conformance.

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bus_inbox.hpp"
#include "eventually.hpp"
#include "ganglion/core/event_codec.hpp"
#include "ganglion/kafka/kafka_bus.hpp"
#include "kafka_broker.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

namespace {

using test::eventually;
using test::inbox;

constexpr std::uint32_t shard_count = 16;

core::event make_event(const std::string& source, const std::string& subject,
                       const std::string& id) {
  core::event e;
  e.id = id;
  e.source = source;
  e.subject = subject;
  e.type = "webhook";
  e.time = core::now_rfc3339();
  e.data = R"({"id":")" + id + R"("})";
  return e;
}

/// The outcome of one publish.
struct outcome {
  core::publish_status status;
  std::string error;
};

/// Publishes and waits for the outcome.
outcome publish(core::remote_bus& bus, core::event e, steady::duration limit = 10s) {
  auto promise = std::make_shared<std::promise<outcome>>();
  auto future = promise->get_future();
  bus.publish(std::move(e), [promise](core::publish_status status, const std::string& error) {
    promise->set_value({status, error});
  });
  if (future.wait_for(limit) != std::future_status::ready)
    return {core::publish_status::failed, "no outcome in time"};
  return future.get();
}

void publish_ok(core::remote_bus& bus, const std::string& source, const std::string& subject,
                const std::string& id) {
  auto result = publish(bus, make_event(source, subject, id));
  ASSERT_EQ(result.status, core::publish_status::accepted) << id << ": " << result.error;
}

class kafka_bus_test : public ::testing::Test {
protected:
  void SetUp() override {
    broker_.create_topic("events", 3);
    broker_.create_topic("events-owners", shard_count);
  }

  std::shared_ptr<core::remote_bus> make_bus(const std::string& replica,
                                            kafka::kafka_bus_options options = {}) {
    kafka::bus_spec spec;
    spec.url = broker_.bootstraps();
    spec.topic = "events";
    options.replica_id = replica;
    options.fetch_max_wait = 20ms;
    options.request_timeout = 5s;
    return kafka::make_kafka_bus(spec, nullptr, options);
  }

  test::kafka_broker broker_;
};

TEST_F(kafka_bus_test, a_sensor_receives_the_events_of_its_sources_only) {
  auto bus = make_bus("r1");
  EXPECT_EQ(bus->kind(), "kafka");
  inbox got;
  auto sub = bus->subscribe("s1", {{"orders", "created"}, {"orders", "paid"}}, got.handler());
  publish_ok(*bus, "orders", "created", "e1");
  publish_ok(*bus, "orders", "shipped", "e2");
  publish_ok(*bus, "billing", "created", "e3");
  publish_ok(*bus, "orders", "paid", "e4");
  publish_ok(*bus, "orders", "created", "e5");
  ASSERT_TRUE(eventually([&] { return got.ids().size() >= 3; }));
  auto ids = got.ids();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"e1", "e4", "e5"}));
  std::set<std::uint64_t> sequences;
  for (auto& e : got.events()) {
    EXPECT_EQ(e->source, "orders");
    EXPECT_EQ(e->data, R"({"id":")" + e->id + R"("})");
    EXPECT_LT(e->sequence >> 48, 3u) << "the partition is in the high bits";
    sequences.insert(e->sequence);
  }
  EXPECT_EQ(sequences.size(), 3u);

  // On the wire: key `<eventSourceName>.<eventName>`, value the encoded event.
  auto records = broker_.consume_all("events");
  ASSERT_EQ(records.size(), 5u);
  std::set<std::string> keys;
  for (auto& r : records) {
    ASSERT_TRUE(r.key && r.value);
    keys.insert(*r.key);
    core::event e;
    EXPECT_TRUE(core::decode_event(*r.value, e));
    EXPECT_EQ(*r.key, e.source + "." + e.subject);
  }
  EXPECT_EQ(keys, (std::set<std::string>{"orders.created", "orders.shipped", "billing.created",
                                         "orders.paid"}));
}

TEST_F(kafka_bus_test, a_new_sensor_starts_with_the_events_published_after_it_subscribed) {
  auto bus = make_bus("r1");
  publish_ok(*bus, "es", "a", "before-1");
  publish_ok(*bus, "es", "b", "before-2");
  inbox got;
  auto sub = bus->subscribe("fresh", {{"es", "a"}, {"es", "b"}}, got.handler());
  publish_ok(*bus, "es", "a", "after-1");
  publish_ok(*bus, "es", "b", "after-2");
  ASSERT_TRUE(eventually([&] { return got.has("after-1") && got.has("after-2"); }));
  EXPECT_FALSE(got.has("before-1"));
  EXPECT_FALSE(got.has("before-2"));
  // The start is committed at once: a restart before any acknowledgement resumes there.
  sub.reset();
  inbox again;
  sub = bus->subscribe("fresh", {{"es", "a"}, {"es", "b"}}, again.handler());
  publish_ok(*bus, "es", "a", "after-3");
  ASSERT_TRUE(eventually([&] { return again.has("after-3"); }));
  EXPECT_TRUE(again.has("after-1"));
  EXPECT_FALSE(again.has("before-1"));
}

TEST_F(kafka_bus_test, publishes_fail_when_the_cluster_is_down_and_saturate_when_queued) {
  broker_.set_down(1);
  kafka::kafka_bus_options options;
  options.message_timeout = 1000ms;
  options.max_in_flight = 2;
  auto bus = make_bus("r1", options);
  std::vector<std::shared_ptr<std::promise<outcome>>> waits;
  for (int i = 0; i < 3; ++i) {
    auto promise = std::make_shared<std::promise<outcome>>();
    waits.push_back(promise);
    bus->publish(make_event("es", "a", "e" + std::to_string(i)),
                 [promise](core::publish_status status, const std::string& error) {
                   promise->set_value({status, error});
                 });
  }
  auto third = waits[2]->get_future();
  ASSERT_EQ(third.wait_for(0s), std::future_status::ready) << "saturated at once";
  EXPECT_EQ(third.get().status, core::publish_status::saturated);
  for (int i = 0; i < 2; ++i) {
    auto future = waits[static_cast<std::size_t>(i)]->get_future();
    ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
    auto result = future.get();
    EXPECT_EQ(result.status, core::publish_status::failed);
    EXPECT_NE(result.error.find("timed out"), std::string::npos) << result.error;
  }
}

TEST(kafka_bus_config, invalid_settings_are_refused_with_the_field) {
  auto expect_error = [](kafka::bus_spec spec, kafka::kafka_bus_options options,
                         const std::string& needle) {
    try {
      kafka::make_kafka_bus(spec, nullptr, options);
      ADD_FAILURE() << "accepted; expected an error about " << needle;
    } catch (const std::runtime_error& ex) {
      EXPECT_NE(std::string(ex.what()).find(needle), std::string::npos) << ex.what();
    }
  };
  kafka::bus_spec ok;
  ok.url = "127.0.0.1:9";
  ok.topic = "events";
  auto no_url = ok;
  no_url.url.clear();
  expect_error(no_url, {}, "url");
  auto no_topic = ok;
  no_topic.topic.clear();
  expect_error(no_topic, {}, "topic");
  auto bad_topic = ok;
  bad_topic.topic = "a topic";
  expect_error(bad_topic, {}, "topic");
  auto sasl = ok;
  sasl.sasl = dsl::sasl_config{.mechanism = "GSSAPI", .user_secret = {}, .password_secret = {}};
  expect_error(sasl, {}, "sasl");
  auto no_secret = ok;
  no_secret.sasl = dsl::sasl_config{};
  no_secret.sasl->user_secret = dsl::secret_key_selector{"kafka", "user"};
  no_secret.sasl->password_secret = dsl::secret_key_selector{"kafka", "password"};
  expect_error(no_secret, {}, "sasl.userSecret");
  kafka::kafka_bus_options zero;
  zero.shards = 0;
  expect_error(ok, zero, "shards");
}

} // namespace
