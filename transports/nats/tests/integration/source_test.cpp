// The nats source against a real nats-server, with a bus that records what it is offered.

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>

#include <map>

#include <gtest/gtest.h>
#include <nats/nats.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/nats/spec.hpp"
#include "ganglion/nats/transport.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"
#include "recording_bus.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

using test::recording_bus;

/// A plain cnats client for the test side.
class raw_client {
public:
  explicit raw_client(const std::string& url) {
    natsOptions* opts = nullptr;
    natsOptions_Create(&opts);
    natsOptions_SetURL(opts, url.c_str());
    natsOptions_SetMaxReconnect(opts, -1);
    natsOptions_SetReconnectWait(opts, 50);
    natsOptions_SetRetryOnFailedConnect(opts, true, nullptr, nullptr);
    status = natsConnection_Connect(&nc_, opts);
    natsOptions_Destroy(opts);
  }
  ~raw_client() { natsConnection_Destroy(nc_); }

  /// Publishes and waits until the server has the message; false when it could not.
  bool publish(const std::string& subject, const std::string& data,
               const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    natsMsg* msg = nullptr;
    natsMsg_Create(&msg, subject.c_str(), nullptr, data.data(), static_cast<int>(data.size()));
    for (const auto& [k, v] : headers)
      natsMsgHeader_Add(msg, k.c_str(), v.c_str());
    auto s = natsConnection_PublishMsg(nc_, msg);
    natsMsg_Destroy(msg);
    return s == NATS_OK && natsConnection_FlushTimeout(nc_, 1000) == NATS_OK;
  }

  natsStatus status = NATS_OK;

private:
  natsConnection* nc_ = nullptr;
};

class nats_source_test : public ::testing::Test {
protected:
  /// Adds event `name` of EventSource `orders` on `url`.
  test::event_under_test<nats::event_spec>& add(const std::string& name, const std::string& url,
                                                const std::string& subject) {
    es.metadata.name = "orders";
    auto& e = events[name];
    e.url = url;
    e.subject = subject;
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name,
                                      std::shared_ptr<core::bus_publisher> to = nullptr) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "nats", event, spec);
    core::source_context ctx;
    ctx.event_source_name = "orders";
    ctx.event_name = name;
    ctx.type = "nats";
    ctx.manifest = &es;
    ctx.bus = to ? to : bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    return core::start_source(nats::make_source_factory(opts), ctx);
  }

  std::uint64_t rejected(const std::string& event, const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "orders"}, {"event", event}, {"reason", reason}})
      .value();
  }

  dsl::event_source es;
  std::map<std::string, test::event_under_test<nats::event_spec>> events;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  nats::options opts;
  std::string secrets = test::temp_dir();
  test::log_capture log;
};

TEST_F(nats_source_test, json_body_becomes_argo_event_data) {
  test::nats_server server{false};
  auto& e = add("created", server.url(), "orders.created");
  e.json_body = true;
  e.metadata = {{"team", "billing"}};
  auto source = start("created");
  raw_client client{server.url()};
  ASSERT_TRUE(client.publish("orders.created", R"({ "id": 7, "items": [1, 2] })",
                             {{"X-Trace", "a"}, {"X-Trace", "b"}, {"lower", "c"}}));

  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  const auto& ev = events[0];
  EXPECT_EQ(ev.type, "nats");
  EXPECT_EQ(ev.source, "orders");
  EXPECT_EQ(ev.subject, "created");
  EXPECT_EQ(ev.id.size(), 32u);
  EXPECT_EQ(ev.datacontenttype, "application/json");
  EXPECT_EQ(ev.data, R"({"subject":"orders.created","body":{"id":7,"items":[1,2]},)"
                     R"("header":{"X-Trace":["a","b"],"lower":["c"]},)"
                     R"("metadata":{"team":"billing"}})");
}

TEST_F(nats_source_test, binary_body_is_base64_and_header_is_left_out) {
  test::nats_server server{false};
  add("any", server.url(), "orders.>");
  auto source = start("any");
  raw_client client{server.url()};
  ASSERT_TRUE(client.publish("orders.eu.paid", std::string("\0\x01hi", 4)));
  ASSERT_TRUE(client.publish("orders.us", ""));

  auto events = bus->wait_for(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data, R"({"subject":"orders.eu.paid","body":"AAFoaQ=="})");
  EXPECT_EQ(events[1].data, R"({"subject":"orders.us","body":""})");
  EXPECT_NE(events[0].id, events[1].id);
}

TEST_F(nats_source_test, invalid_json_is_dropped_and_counted) {
  test::nats_server server{false};
  add("created", server.url(), "orders.created").json_body = true;
  auto source = start("created");
  raw_client client{server.url()};
  ASSERT_TRUE(client.publish("orders.created", "not json"));
  ASSERT_TRUE(client.publish("orders.created", R"({"ok":true})"));

  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(json::parse(events[0].data)["body"], json({{"ok", true}}));
  EXPECT_EQ(rejected("created", "invalid_json"), 1u);
  EXPECT_EQ(log.count("message on orders.created dropped"), 1u);
}

TEST_F(nats_source_test, filter_expression_selects_events) {
  test::nats_server server{false};
  auto& e = add("created", server.url(), "orders.created");
  e.json_body = true;
  e.filter = dsl::event_source_filter{R"(body.id == 4 && body.name != "Joe")"};
  auto source = start("created");
  raw_client client{server.url()};
  ASSERT_TRUE(client.publish("orders.created", R"({"id":4,"name":"Joe"})"));
  ASSERT_TRUE(client.publish("orders.created", R"({"id":5,"name":"Ann"})"));
  ASSERT_TRUE(client.publish("orders.created", R"({"id":4,"name":"Ann"})"));

  ASSERT_TRUE(test::eventually([&] { return rejected("created", "filtered") == 2; }));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(json::parse(events[0].data)["body"]["name"], "Ann");
}

TEST_F(nats_source_test, filter_that_does_not_compile_refuses_to_start) {
  test::nats_server server{false};
  add("created", server.url(), "orders.created").filter = dsl::event_source_filter{"body.id =="};
  try {
    start("created");
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("filter.expression"), std::string::npos) << e.what();
  }
}

TEST_F(nats_source_test, queue_group_members_share_messages) {
  test::nats_server server{false};
  add("a", server.url(), "jobs").queue = "workers";
  add("b", server.url(), "jobs").queue = "workers";
  auto other = std::make_shared<recording_bus>();
  auto first = start("a");
  auto second = start("b", other);
  raw_client client{server.url()};
  for (int i = 0; i < 60; ++i)
    ASSERT_TRUE(client.publish("jobs", std::to_string(i)));

  ASSERT_TRUE(test::eventually([&] { return bus->size() + other->size() == 60; }));
  std::multiset<std::string> bodies;
  for (auto* b : {bus.get(), other.get()})
    for (const auto& ev : b->wait_for(0))
      bodies.insert(json::parse(ev.data)["body"].get<std::string>());
  EXPECT_EQ(bodies.size(), 60u);
  EXPECT_EQ(std::set<std::string>(bodies.begin(), bodies.end()).size(), 60u) << "duplicates";
  EXPECT_GT(bus->size(), 0u);
  EXPECT_GT(other->size(), 0u);
}

TEST_F(nats_source_test, starts_before_the_server_and_connects_later) {
  test::nats_server server{false};
  server.stop();
  add("created", server.url(), "orders.created");
  auto started = std::chrono::steady_clock::now();
  auto source = start("created");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 3s) << "start must not wait for the server";
  server.start();
  raw_client client{server.url()};
  // The subscription reaches the server on connect: publish until one message arrives.
  ASSERT_TRUE(test::eventually([&] {
    client.publish("orders.created", "x");
    return bus->size() > 0;
  }));
}

TEST_F(nats_source_test, reconnects_after_a_server_restart_with_few_log_lines) {
  test::nats_server server{false};
  add("created", server.url(), "orders.created");
  auto source = start("created");
  {
    raw_client client{server.url()};
    ASSERT_TRUE(client.publish("orders.created", "before"));
    ASSERT_EQ(bus->wait_for(1).size(), 1u);
  }
  server.stop();
  ASSERT_TRUE(test::eventually([&] { return log.count("disconnected") > 0; }));
  std::this_thread::sleep_for(1s); // kept: an outage that lasts (reconnection rounds fail)
  server.start();
  raw_client client{server.url()};
  ASSERT_TRUE(test::eventually([&] {
    client.publish("orders.created", "after");
    return bus->size() > 1;
  }));
  EXPECT_EQ(json::parse(bus->wait_for(2).back().data)["body"], "YWZ0ZXI=");
  EXPECT_EQ(log.count("disconnected"), 1u);
  EXPECT_EQ(log.count("reconnected"), 1u);
  EXPECT_LE(log.count("nats source orders/created"), 5u)
    << "one line per state change, not per reconnection attempt";
}

TEST_F(nats_source_test, slow_consumer_drops_are_counted_with_few_log_lines) {
  test::nats_server server{false};
  opts.pending_messages = 5;
  add("created", server.url(), "orders.created");
  auto source = start("created");
  bus->hold(); // the first message blocks the delivery thread: the rest piles up
  raw_client client{server.url()};
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(client.publish("orders.created", std::to_string(i)));
  ASSERT_TRUE(test::eventually([&] { return log.count("falling behind") > 0; }));
  bus->release();
  ASSERT_TRUE(test::eventually(
    [&] { return bus->size() + rejected("created", "slow_consumer") == 100u; }))
    << bus->size() << " delivered, " << rejected("created", "slow_consumer") << " dropped";
  EXPECT_GT(rejected("created", "slow_consumer"), 0u);
  EXPECT_LE(log.count("falling behind"), 3u) << "one line per burst, not per message";
}

} // namespace

namespace {

TEST_F(nats_source_test, messages_waiting_behind_a_slow_bus_are_the_sources_lag) {
  test::nats_server server{false};
  add("created", server.url(), "orders.created");
  auto source = start("created");
  auto lag = [&] {
    auto text = metrics.render();
    const std::string series = R"(ganglion_source_lag{eventsource="orders",event="created"} )";
    auto at = text.find(series);
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + series.size()));
  };
  raw_client client{server.url()};
  ASSERT_TRUE(client.publish("orders.created", "first"));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1u; }));
  EXPECT_EQ(lag(), 0);
  bus->hold(); // the next message blocks the delivery thread: the rest wait behind it
  for (int i = 0; i < 50; ++i)
    ASSERT_TRUE(client.publish("orders.created", std::to_string(i)));
  ASSERT_TRUE(client.publish("orders.created", "last"));
  // The 50 behind the blocked one wait in the subscription.
  EXPECT_TRUE(test::eventually([&] { return lag() >= 40; })) << lag();
  bus->release();
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 52u; })) << bus->size();
  EXPECT_EQ(lag(), 0);
}

} // namespace
