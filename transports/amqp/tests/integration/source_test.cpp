// The amqp source against a real RabbitMQ broker (one per test binary), with a bus that records
// what it is offered and refuses on demand.

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include <gtest/gtest.h>

#include "amqp_client.hpp"
#include "eventually.hpp"
#include "ganglion/amqp/spec.hpp"
#include "ganglion/amqp/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"
#include "rabbitmq_server.hpp"
#include "recording_bus.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Every captured log line, for failure messages.
std::string dump(const test::log_capture& log) {
  std::string out;
  for (const auto& line : log.lines())
    out += line + "\n";
  return out;
}

/// The `"messageId":"…"` of an event's data.
std::string message_id(const core::event& e) {
  auto at = e.data.find(R"("messageId":")");
  if (at == std::string::npos)
    return {};
  at += 13;
  return e.data.substr(at, e.data.find('"', at) - at);
}

class amqp_source_test : public ::testing::Test {
protected:
  static void SetUpTestSuite() { server = new test::rabbitmq_server(); }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }

  /// Event `name` of EventSource `orders` on the test broker: exchange `<name>-x` (fanout),
  /// routing key `hello`.
  test::event_under_test<amqp::event_spec>& add(const std::string& name) {
    es.metadata.name = "orders";
    auto& e = events[name];
    e.url = server->url();
    e.exchange_name = name + "-x";
    e.exchange_type = "fanout";
    e.routing_key = "hello";
    dsl::backoff quick;
    quick.duration_ns = 200'000'000;
    quick.steps = 1000;
    e.connection_backoff = quick;
    return e;
  }

  /// The context of event `name` (the events added so far in the manifest), publishing to
  /// `to` (the fixture's bus when null), its failures kept in `failures`.
  core::source_context context(const std::string& name,
                               std::shared_ptr<core::bus_publisher> to = nullptr) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "amqp", event, spec);
    core::source_context ctx;
    ctx.event_source_name = "orders";
    ctx.event_name = name;
    ctx.type = "amqp";
    ctx.manifest = &es;
    ctx.bus = to ? to : bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    ctx.connected = [this] { ++connections; };
    ctx.fail = [this](const std::string& error) {
      std::lock_guard guard{mutex};
      failures.push_back(error);
    };
    return ctx;
  }

  /// Starts event `name` and waits until it consumes.
  std::unique_ptr<core::source> start(const std::string& name,
                                      std::shared_ptr<core::bus_publisher> to = nullptr) {
    auto source = core::start_source(amqp::make_source_factory(opts), context(name, to));
    EXPECT_TRUE(test::eventually([&] { return connections.load() > 0; }, 15s))
      << dump(log);
    return source;
  }

  std::uint64_t counter(const std::string& family, const std::string& event,
                        const std::string& reason = {}) {
    core::labels series{{"eventsource", "orders"}, {"event", event}};
    if (!reason.empty())
      series.emplace_back("reason", reason);
    return metrics.get_counter(family, "", series).value();
  }

  static test::rabbitmq_server* server;
  dsl::event_source es;
  std::map<std::string, test::event_under_test<amqp::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  amqp::options opts;
  std::string secrets = test::temp_dir();
  std::atomic<int> connections{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  test::log_capture log;
};

test::rabbitmq_server* amqp_source_test::server = nullptr;

TEST_F(amqp_source_test, a_message_becomes_argo_event_data) {
  auto& e = add("created");
  e.json_body = true;
  e.metadata = {{"team", "billing"}};
  auto source = start("created");
  test::amqp_client client{server->port()};
  test::message_properties p;
  p.content_type = "application/json";
  p.content_encoding = "identity";
  p.delivery_mode = 2;
  p.priority = 3;
  p.correlation_id = "c-1";
  p.reply_to = "replies";
  p.expiration = "60000";
  p.message_id = "m-1";
  p.timestamp = 1700000000;
  p.type = "order.created";
  p.app_id = "shop";
  client.publish("created-x", "hello", R"({ "id": 7, "note": "<b>" })", p);

  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; })) << dump(log);
  auto ev = bus->events()[0];
  EXPECT_EQ(ev.type, "amqp");
  EXPECT_EQ(ev.source, "orders");
  EXPECT_EQ(ev.subject, "created");
  EXPECT_EQ(ev.data,
            R"({"contentType":"application/json","contentEncoding":"identity","deliveryMode":2,)"
            R"("priority":3,"correlationId":"c-1","replyTo":"replies","expiration":"60000",)"
            R"("messageId":"m-1","timestamp":"2023-11-14 22:13:20 +0000 UTC",)"
            R"("type":"order.created","appId":"shop","exchange":"created-x","routingKey":"hello",)"
            R"("body":{"id":7,"note":"\u003cb\u003e"},"metadata":{"team":"billing"}})");

  // No property set: Go's zero values; the body as base64.
  client.publish("created-x", "hello", "not json");
  // Counted received, then rejected: wait for the last.
  ASSERT_TRUE(test::eventually(
    [&] { return counter("ganglion_events_rejected_total", "created", "invalid_json") == 1; }));
  EXPECT_EQ(counter("ganglion_events_received_total", "created"), 2u);
}

TEST_F(amqp_source_test, a_plain_message_has_go_zero_values_and_a_base64_body) {
  add("plain");
  auto source = start("plain");
  test::amqp_client client{server->port()};
  client.publish("plain-x", "any", std::string("\0\x01hi", 4));
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; })) << dump(log);
  EXPECT_EQ(bus->events()[0].data,
            R"({"contentType":"","contentEncoding":"","deliveryMode":0,"priority":0,)"
            R"("correlationId":"","replyTo":"","expiration":"","messageId":"",)"
            R"("timestamp":"0001-01-01 00:00:00 +0000 UTC","type":"","appId":"",)"
            R"("exchange":"plain-x","routingKey":"any","body":"AAFoaQ=="})");
}

TEST_F(amqp_source_test, a_message_the_bus_refuses_goes_back_to_the_queue_not_lost) {
  auto& e = add("refused");
  e.queue.name = "refused-q";
  e.queue.exclusive = false;
  e.queue.durable = true;
  bus->refuse_next(1000000);
  auto source = start("refused");
  test::amqp_client client{server->port()};
  test::message_properties p;
  p.message_id = "only";
  client.publish("refused-x", "k", "payload", p);
  ASSERT_TRUE(test::eventually([&] { return bus->refused() >= 3; })) << dump(log);
  EXPECT_GE(counter("ganglion_events_rejected_total", "refused", "saturated"), 3u);
  source.reset();
  EXPECT_EQ(client.ready("refused-q"), 1u) << "the refused message stays in the queue";

  // Once the bus accepts, the message arrives and is acknowledged.
  bus->refuse_next(2);
  source = start("refused");
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; })) << dump(log);
  EXPECT_EQ(message_id(bus->events()[0]), "only");
  source.reset();
  EXPECT_EQ(client.ready("refused-q"), 0u) << "acknowledged once accepted";
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(amqp_source_test, messages_ready_in_the_queue_behind_a_refusing_bus_are_the_lag) {
  auto& e = add("lagging");
  e.queue.name = "lagging-q";
  e.queue.exclusive = false;
  auto lag = [&] {
    auto text = metrics.render();
    const std::string series = R"(ganglion_source_lag{eventsource="orders",event="lagging"} )";
    auto at = text.find(series);
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + series.size()));
  };
  bus->refuse_next(1000000);
  auto source = start("lagging");
  EXPECT_TRUE(test::eventually([&] { return lag() == 0; })) << lag();
  test::amqp_client client{server->port()};
  for (int i = 0; i < 1000; ++i)
    client.publish("lagging-x", "k", std::to_string(i));
  // Refused and requeued, 256 at most held by the source: the rest is ready in the queue.
  EXPECT_TRUE(test::eventually([&] { return lag() >= 700; })) << lag() << dump(log);
  bus->refuse_next(0);
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1000u; })) << bus->size();
  EXPECT_TRUE(test::eventually([&] { return lag() == 0; })) << lag();
}

TEST_F(amqp_source_test, a_broker_restart_mid_stream_loses_nothing_acknowledged) {
  auto& e = add("restart");
  e.queue.name = "restart-q";
  e.queue.exclusive = false;
  e.queue.durable = true;
  auto source = start("restart");
  std::set<std::string> sent;
  auto publish = [&](int from, int to) {
    // A restarted broker accepts connections before it takes logins.
    std::optional<test::amqp_client> connected;
    ASSERT_TRUE(test::eventually([&] {
      try {
        connected.emplace(server->port());
        return true;
      } catch (const std::runtime_error&) {
        return false;
      }
    }, 30s));
    auto& client = *connected;
    for (int i = from; i < to; ++i) {
      test::message_properties p;
      p.message_id = std::to_string(i);
      p.delivery_mode = 2;
      client.publish("restart-x", "k", "m", p);
      sent.insert(p.message_id.value());
    }
  };
  publish(0, 50);
  ASSERT_TRUE(test::eventually([&] { return bus->size() >= 10; })) << dump(log);
  server->kill();
  server->start();
  auto restarted = std::chrono::steady_clock::now();
  publish(50, 100);
  auto seen = [&] {
    std::set<std::string> ids;
    for (const auto& ev : bus->events())
      ids.insert(message_id(ev));
    return ids;
  };
  ASSERT_TRUE(test::eventually([&] { return seen() == sent; }, 30s))
    << "missing some of " << sent.size() << " messages, saw " << seen().size() << "\n"
    << dump(log);
  EXPECT_LT(std::chrono::steady_clock::now() - restarted, 10s);
  EXPECT_GE(counter("ganglion_source_reconnects_total", "restart"), 1u);
  EXPECT_GE(connections.load(), 2);
  std::lock_guard guard{mutex};
  EXPECT_TRUE(failures.empty());
}

TEST_F(amqp_source_test, url_secret_and_auth_come_from_secrets_and_a_wrong_password_fails) {
  test::write_file(secrets + "/rabbit/url", "amqp://127.0.0.1:" + std::to_string(server->port()) + "\n");
  test::write_file(secrets + "/rabbit/user", "guest");
  test::write_file(secrets + "/rabbit/password", "guest");
  test::write_file(secrets + "/rabbit/wrong", "not-the-password");
  auto& e = add("secret");
  e.url.clear();
  e.url_secret = dsl::secret_key_selector{"rabbit", "url"};
  e.auth = dsl::basic_auth{dsl::secret_key_selector{"rabbit", "user"},
                           dsl::secret_key_selector{"rabbit", "password"}};
  auto source = start("secret");
  test::amqp_client client{server->port()};
  client.publish("secret-x", "k", "from secrets");
  ASSERT_TRUE(test::eventually([&] { return bus->size() == 1; })) << dump(log);
  source.reset();

  e.auth->password = dsl::secret_key_selector{"rabbit", "wrong"};
  e.connection_backoff->steps = 2;
  source = core::start_source(amqp::make_source_factory(opts), context("secret"));
  ASSERT_TRUE(test::eventually([&] {
    std::lock_guard guard{mutex};
    return !failures.empty();
  })) << dump(log);
  std::lock_guard guard{mutex};
  EXPECT_NE(failures[0].find("login"), std::string::npos) << failures[0];
  EXPECT_EQ(dump(log).find("not-the-password"), std::string::npos);
}

TEST_F(amqp_source_test, no_broker_fails_the_source_after_connection_backoff_steps) {
  auto& e = add("unreachable");
  e.url = "amqp://127.0.0.1:" + std::to_string(test::free_port()) + "/";
  e.connection_backoff->steps = 2;
  e.connection_backoff->duration_ns = 10'000'000;
  auto source = core::start_source(amqp::make_source_factory(opts), context("unreachable"));
  ASSERT_TRUE(test::eventually([&] {
    std::lock_guard guard{mutex};
    return !failures.empty();
  }));
  std::lock_guard guard{mutex};
  EXPECT_NE(failures[0].find("cannot connect"), std::string::npos) << failures[0];
}

} // namespace
