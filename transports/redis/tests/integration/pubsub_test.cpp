// The redis (Pub/Sub) source against a real redis-server: Argo's event data, jsonBody, the bus
// refusing (counted, Pub/Sub cannot redeliver), a server restart, AUTH and SELECT.

#include <gtest/gtest.h>

#include "redis_fixture.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class redis_pubsub : public ::testing::Test {
protected:
  void SetUp() override { es.metadata.name = "orders"; }

  test::event_under_test<redis::event_spec>& add(const std::string& name) {
    auto& e = events[name];
    e.host_address = server->address();
    e.channels = {"orders"};
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name,
                                      redis::options opts = test::fast_options()) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "redis", event, spec);
    return redis::make_source_factory(opts)(test::source_context(
      es, "redis", name, bus, &metrics, std::make_shared<core::secret_store>(secrets)));
  }

  /// Publishes until `n` events arrived (a message published before the subscription exists,
  /// or while the source reconnects, is lost: that is Pub/Sub).
  long publish(const std::string& channel, const std::string& message) {
    auto r = client.run({"PUBLISH", channel, message});
    return r.integer;
  }

  std::unique_ptr<test::redis_server> server = std::make_unique<test::redis_server>();
  test::redis_client client{test::plain(*server)};
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<redis::event_spec>> events;
  std::shared_ptr<test::answering_bus> bus = std::make_shared<test::answering_bus>();
  core::metrics_registry metrics;
};

TEST_F(redis_pubsub, a_message_becomes_an_event_with_argos_data) {
  add("e").metadata = {{"team", "a"}, {"env", "dev"}};
  auto source = start("e");
  EXPECT_EQ(publish("orders", "hello <world> & \"you\""), 1); // the source is subscribed
  ASSERT_TRUE(bus->wait_for(1));
  auto e = bus->events().front();
  EXPECT_EQ(e.type, "redis");
  EXPECT_EQ(e.source, "orders");
  EXPECT_EQ(e.subject, "e");
  EXPECT_EQ(e.data, R"({"channel":"orders","pattern":"","body":"hello \u003cworld\u003e \u0026 )"
                    R"(\"you\"","metadata":{"env":"dev","team":"a"}})");
}

TEST_F(redis_pubsub, every_channel_is_subscribed) {
  add("e").channels = {"a", "b"};
  auto source = start("e");
  EXPECT_EQ(publish("a", "1"), 1);
  EXPECT_EQ(publish("b", "2"), 1);
  EXPECT_EQ(publish("c", "3"), 0);
  ASSERT_TRUE(bus->wait_for(2));
  EXPECT_EQ(bus->events()[1].data, R"({"channel":"b","pattern":"","body":"2"})");
}

TEST_F(redis_pubsub, json_body_embeds_the_message_and_refuses_what_is_not_json) {
  add("e").json_body = true;
  auto source = start("e");
  publish("orders", "not json");
  publish("orders", R"({ "id" : 7 })");
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_EQ(bus->events().front().data, R"({"channel":"orders","pattern":"","body":{"id":7}})");
  EXPECT_EQ(bus->offered(), 1u);
  EXPECT_EQ(test::counter_value(metrics, R"(ganglion_events_rejected_total{eventsource="orders",)"
                                   R"(event="e",reason="invalid_json"})"),
            1);
}

TEST_F(redis_pubsub, a_refused_event_is_counted_as_lost) {
  add("e");
  auto source = start("e");
  bus->answer(core::publish_status::saturated);
  publish("orders", "1");
  ASSERT_TRUE(test::eventually([&] { return bus->offered() == 1; }));
  bus->answer(core::publish_status::accepted);
  publish("orders", "2");
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_EQ(bus->events().front().data, R"({"channel":"orders","pattern":"","body":"2"})");
  std::string labels = R"({eventsource="orders",event="e")";
  EXPECT_EQ(test::counter_value(metrics, "ganglion_events_received_total" + labels + "}"), 2);
  EXPECT_EQ(test::counter_value(metrics, "ganglion_events_accepted_total" + labels + "}"), 1);
  EXPECT_EQ(test::counter_value(metrics,
                          "ganglion_events_rejected_total" + labels + R"(,reason="saturated"})"),
            1);
}

TEST_F(redis_pubsub, the_source_subscribes_again_after_a_server_restart) {
  add("e");
  auto source = start("e");
  publish("orders", "before");
  ASSERT_TRUE(bus->wait_for(1));
  server->stop();
  server->start();
  // Subscribed again within seconds: a PUBLISH then reaches one subscriber.
  ASSERT_TRUE(test::eventually(
    [&] { return client.try_run({"PING"}) && publish("orders", "after") == 1; }, 10s));
  ASSERT_TRUE(bus->wait_for(2));
  EXPECT_EQ(bus->events()[1].data, R"({"channel":"orders","pattern":"","body":"after"})");
  EXPECT_EQ(test::counter_value(metrics, R"(ganglion_source_reconnects_total{eventsource="orders",)"
                                   R"(event="e"})"),
            1);
}

TEST_F(redis_pubsub, the_source_fails_when_the_server_stays_away) {
  add("e");
  auto opts = test::fast_options();
  opts.lost_after = 300ms;
  std::mutex mutex;
  std::string failure;
  for (const auto& [event, spec] : events)
    test::put_event(es, "redis", event, spec);
  auto ctx = test::source_context(es, "redis", "e", bus, &metrics, nullptr);
  ctx.fail = [&](const std::string& why) {
    std::lock_guard guard{mutex};
    failure = why;
  };
  auto source = redis::make_source_factory(opts)(ctx);
  server->stop();
  ASSERT_TRUE(test::eventually([&] {
    std::lock_guard guard{mutex};
    return !failure.empty();
  }));
  EXPECT_NE(failure.find("unreachable"), std::string::npos) << failure;
}

TEST_F(redis_pubsub, password_username_and_db_are_used) {
  test::redis_server_options options;
  options.password = "s3cret";
  server = std::make_unique<test::redis_server>(options);
  test::write_file(secrets + "/redis/password", "s3cret\n");
  auto& e = add("e");
  e.password = dsl::secret_key_selector{"redis", "password"};
  e.namespace_name = "argo-events";
  e.username = "default";
  e.db = 3;
  auto source = start("e");
  auto settings = test::plain(*server);
  settings.password = "s3cret";
  test::redis_client authed{settings};
  EXPECT_EQ(authed.run({"PUBLISH", "orders", "x"}).integer, 1);
  ASSERT_TRUE(bus->wait_for(1));
}

TEST_F(redis_pubsub, a_wrong_password_is_a_start_error) {
  test::redis_server_options options;
  options.password = "s3cret";
  server = std::make_unique<test::redis_server>(options);
  test::write_file(secrets + "/redis/password", "wrong");
  auto& e = add("e");
  e.password = dsl::secret_key_selector{"redis", "password"};
  e.namespace_name = "argo-events";
  try {
    start("e");
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("AUTH on " + server->address() + " failed"), std::string::npos) << what;
  }
}

TEST_F(redis_pubsub, no_server_is_a_start_error) {
  auto& e = add("e");
  e.host_address = "127.0.0.1:" + std::to_string(test::free_port());
  EXPECT_THROW(start("e"), core::source_error);
}

} // namespace
