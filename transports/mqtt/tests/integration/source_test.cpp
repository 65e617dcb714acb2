// The mqtt source against a real mosquitto broker, with a bus that records what it is offered.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/mqtt/spec.hpp"
#include "ganglion/mqtt/transport.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"
#include "mosquitto_server.hpp"
#include "mqtt_publisher.hpp"
#include "recording_bus.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

using test::recording_bus;

class mqtt_source_test : public ::testing::Test {
protected:
  /// Adds event `name` of EventSource `devices` on `url`.
  test::event_under_test<mqtt::event_spec>& add(const std::string& name, const std::string& url,
                                                const std::string& topic) {
    es.metadata.name = "devices";
    auto& e = events[name];
    e.url = url;
    e.topic = topic;
    e.client_id = "ganglion-" + name;
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "mqtt", event, spec);
    core::source_context ctx;
    ctx.event_source_name = "devices";
    ctx.event_name = name;
    ctx.type = "mqtt";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& reason) {
      std::lock_guard guard{mutex};
      failures.push_back(reason);
    };
    ctx.connected = [this] { connected_calls.fetch_add(1); };
    return core::start_source(mqtt::make_source_factory(opts), ctx);
  }

  /// Starts `name` and waits until its subscription is acknowledged.
  std::unique_ptr<core::source> start_subscribed(const std::string& name) {
    auto source = start(name);
    EXPECT_TRUE(test::eventually([&] { return connected_calls.load() > 0; }, 10s));
    return source;
  }

  std::uint64_t counter(const std::string& family, const std::string& event,
                        const std::string& reason = {}) {
    core::labels series{{"eventsource", "devices"}, {"event", event}};
    if (!reason.empty())
      series.emplace_back("reason", reason);
    return metrics.get_counter(family, "", series).value();
  }

  std::vector<std::string> failed() {
    std::lock_guard guard{mutex};
    return failures;
  }

  dsl::event_source es;
  std::map<std::string, test::event_under_test<mqtt::event_spec>> events;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  mqtt::options opts;
  std::string secrets = test::temp_dir();
  test::log_capture log;
  std::mutex mutex;
  std::vector<std::string> failures;
  std::atomic<int> connected_calls{0};
};

TEST_F(mqtt_source_test, json_body_becomes_argo_event_data) {
  test::mosquitto_server broker;
  auto& e = add("temperature", broker.url(), "sensors/+/temperature");
  e.json_body = true;
  e.metadata = {{"site", "lab"}, {"floor", "2"}};
  auto source = start_subscribed("temperature");
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("sensors/s1/temperature", R"({ "celsius": 21.5, "ok": true })"));

  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  const auto ev = bus->events()[0];
  EXPECT_EQ(ev.type, "mqtt");
  EXPECT_EQ(ev.source, "devices");
  EXPECT_EQ(ev.subject, "temperature");
  EXPECT_EQ(ev.datacontenttype, "application/json");
  EXPECT_EQ(ev.data, R"({"topic":"sensors/s1/temperature","messageId":0,)"
                     R"("body":{"celsius":21.5,"ok":true},"metadata":{"floor":"2","site":"lab"}})");
  EXPECT_EQ(counter("ganglion_events_accepted_total", "temperature"), 1u);
}

TEST_F(mqtt_source_test, binary_body_is_base64_on_a_multi_level_wildcard) {
  test::mosquitto_server broker;
  add("any", broker.url(), "plant/#");
  auto source = start_subscribed("any");
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("plant/a/b", std::string("\0\x01hi", 4)));
  ASSERT_TRUE(client.publish("plant", ""));
  ASSERT_TRUE(client.publish("other/x", "not subscribed"));

  ASSERT_TRUE(test::eventually([&] { return bus->size() == 2; }));
  auto got = bus->events();
  EXPECT_EQ(got[0].data, R"({"topic":"plant/a/b","messageId":0,"body":"AAFoaQ=="})");
  EXPECT_EQ(got[1].data, R"({"topic":"plant","messageId":0,"body":""})");
  EXPECT_NE(got[0].id, got[1].id);
}

TEST_F(mqtt_source_test, invalid_json_is_dropped_counted_and_logged_once) {
  test::mosquitto_server broker;
  add("readings", broker.url(), "readings").json_body = true;
  auto source = start_subscribed("readings");
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("readings", "not json"));
  ASSERT_TRUE(client.publish("readings", "{broken"));
  ASSERT_TRUE(client.publish("readings", R"({"ok":1})"));

  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  EXPECT_EQ(json::parse(bus->events()[0].data)["body"], json({{"ok", 1}}));
  EXPECT_EQ(counter("ganglion_events_rejected_total", "readings", "invalid_json"), 2u);
  EXPECT_EQ(log.count("message on readings dropped"), 1u) << "throttled";
}

TEST_F(mqtt_source_test, filter_expression_selects_events) {
  test::mosquitto_server broker;
  auto& e = add("readings", broker.url(), "readings");
  e.json_body = true;
  e.filter = dsl::event_source_filter{"body.level > 3"};
  auto source = start_subscribed("readings");
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("readings", R"({"level":1})"));
  ASSERT_TRUE(client.publish("readings", R"({"level":5})"));

  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  EXPECT_EQ(json::parse(bus->events()[0].data)["body"]["level"], 5);
  EXPECT_TRUE(test::eventually(
    [&] { return counter("ganglion_events_rejected_total", "readings", "filtered") == 1; }));
}

TEST_F(mqtt_source_test, bus_refusals_are_counted_and_logged_once_per_episode) {
  test::mosquitto_server broker;
  add("readings", broker.url(), "readings");
  auto source = start_subscribed("readings");
  test::mqtt_publisher client{broker.port()};
  bus->answer(core::publish_status::saturated);
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(client.publish("readings", std::to_string(i)));
  ASSERT_TRUE(test::eventually(
    [&] { return counter("ganglion_events_rejected_total", "readings", "saturated") == 5; }));
  bus->answer(core::publish_status::accepted);
  ASSERT_TRUE(client.publish("readings", "after"));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  EXPECT_EQ(json::parse(bus->events()[0].data)["body"], "YWZ0ZXI=");
  EXPECT_EQ(counter("ganglion_events_received_total", "readings"), 6u);
  EXPECT_EQ(log.count("the bus refused an event (saturated"), 1u);
  EXPECT_TRUE(
    test::eventually([&] { return log.count("5 message(s) were dropped meanwhile") == 1; }));
}

TEST_F(mqtt_source_test, is_pending_until_subscribed_and_starts_before_the_broker) {
  test::mosquitto_server broker;
  broker.stop();
  auto& e = add("late", broker.url(), "late");
  e.connection_backoff = dsl::backoff{};
  e.connection_backoff->duration_ns = 200'000'000;
  e.connection_backoff->steps = 50;
  auto started = std::chrono::steady_clock::now();
  auto source = start("late");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 2s) << "start must not wait for the broker";
  ASSERT_TRUE(test::eventually([&] { return log.count("cannot connect to") > 0; }));
  EXPECT_EQ(connected_calls.load(), 0);
  broker.start();
  ASSERT_TRUE(test::eventually([&] { return connected_calls.load() == 1; }, 15s));
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("late", "x"));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  EXPECT_TRUE(failed().empty());
}

TEST_F(mqtt_source_test, gives_up_when_the_connection_backoff_is_spent) {
  test::mosquitto_server broker;
  broker.stop();
  auto& e = add("never", broker.url(), "never");
  e.connection_backoff = dsl::backoff{};
  e.connection_backoff->duration_ns = 50'000'000;
  e.connection_backoff->steps = 3;
  auto source = start("never");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  auto reason = failed().front();
  EXPECT_NE(reason.find("cannot connect to " + broker.url() + " after 3 attempt(s)"),
            std::string::npos)
    << reason;
  EXPECT_EQ(failed().size(), 1u);
  EXPECT_EQ(connected_calls.load(), 0);
}

TEST_F(mqtt_source_test, reconnects_after_a_broker_restart_with_few_log_lines) {
  test::mosquitto_server broker;
  add("readings", broker.url(), "readings");
  auto source = start_subscribed("readings");
  {
    test::mqtt_publisher client{broker.port()};
    ASSERT_TRUE(client.publish("readings", "before"));
    ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
  }
  broker.stop();
  ASSERT_TRUE(test::eventually([&] { return log.count("disconnected from") > 0; }));
  // Failed attempts while the broker is away: at least two (100 ms, 200 ms …).
  ASSERT_TRUE(test::eventually([&] { return log.count("cannot connect to") > 0; }));
  auto restarted = std::chrono::steady_clock::now();
  broker.start();
  ASSERT_TRUE(test::eventually([&] { return connected_calls.load() == 2; }, 10s));
  EXPECT_LT(std::chrono::steady_clock::now() - restarted, 7s) << "reconnect within seconds";
  test::mqtt_publisher client{broker.port()};
  ASSERT_TRUE(client.publish("readings", "after"));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 2; }));
  EXPECT_EQ(json::parse(bus->events().back().data)["body"], "YWZ0ZXI=");
  EXPECT_EQ(log.count("disconnected from"), 1u);
  EXPECT_EQ(log.count("reconnected to"), 1u);
  EXPECT_LE(log.count("mqtt source devices/readings"), 6u)
    << "one line per state change, not per reconnection attempt";
  EXPECT_EQ(counter("ganglion_source_reconnects_total", "readings"), 1u);
  EXPECT_TRUE(failed().empty());
}

TEST_F(mqtt_source_test, logs_in_with_the_auth_secrets) {
  test::mosquitto_server_options options;
  options.user = "sensor";
  options.password = "s3cret";
  test::mosquitto_server broker{options};
  test::write_file(secrets + "/mqtt-auth/username", "sensor\n");
  test::write_file(secrets + "/mqtt-auth/password", "s3cret\n");
  auto& e = add("readings", broker.url(), "readings");
  e.auth = dsl::basic_auth{dsl::secret_key_selector{"mqtt-auth", "username"},
                           dsl::secret_key_selector{"mqtt-auth", "password"}};
  auto source = start_subscribed("readings");
  test::mqtt_publisher client{broker.port(), "sensor", "s3cret"};
  ASSERT_TRUE(client.publish("readings", "x"));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; }));
}

TEST_F(mqtt_source_test, refused_credentials_fail_the_source_at_once) {
  test::mosquitto_server_options options;
  options.user = "sensor";
  options.password = "s3cret";
  test::mosquitto_server broker{options};
  test::write_file(secrets + "/mqtt-auth/username", "sensor");
  test::write_file(secrets + "/mqtt-auth/password", "wrong");
  auto& e = add("readings", broker.url(), "readings");
  e.auth = dsl::basic_auth{dsl::secret_key_selector{"mqtt-auth", "username"},
                           dsl::secret_key_selector{"mqtt-auth", "password"}};
  auto source = start("readings");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 5s));
  EXPECT_NE(failed().front().find("the broker refused the connection"), std::string::npos)
    << failed().front();
}

TEST_F(mqtt_source_test, a_missing_secret_refuses_to_start) {
  test::mosquitto_server broker;
  auto& e = add("readings", broker.url(), "readings");
  e.auth = dsl::basic_auth{dsl::secret_key_selector{"nope", "username"},
                           dsl::secret_key_selector{"nope", "password"}};
  try {
    start("readings");
    FAIL() << "expected a source_error";
  } catch (const core::source_error& error) {
    EXPECT_NE(std::string(error.what()).find("mqtt.auth.username"), std::string::npos)
      << error.what();
  }
}

TEST_F(mqtt_source_test, a_broker_that_never_acknowledges_is_an_attempt_that_times_out) {
  // A listening socket nobody accepts on: the kernel completes the TCP handshake, no CONNACK.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 8), 0);
  socklen_t length = sizeof addr;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length), 0);
  opts.connect_timeout = 300ms;
  auto& e = add("silent", "tcp://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)), "t");
  e.connection_backoff = dsl::backoff{};
  e.connection_backoff->duration_ns = 50'000'000;
  e.connection_backoff->steps = 2;
  auto source = start("silent");
  EXPECT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  ::close(fd);
  ASSERT_FALSE(failed().empty());
  EXPECT_NE(failed().front().find("after 2 attempt(s): no answer to CONNECT within 300 ms"),
            std::string::npos)
    << failed().front();
}

TEST_F(mqtt_source_test, stops_at_once_while_the_broker_is_away) {
  test::mosquitto_server broker;
  add("readings", broker.url(), "readings");
  auto source = start_subscribed("readings");
  broker.stop();
  ASSERT_TRUE(test::eventually([&] { return log.count("cannot connect to") > 0; }));
  auto stopping = std::chrono::steady_clock::now();
  source.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 1s);
  EXPECT_TRUE(failed().empty());
}
