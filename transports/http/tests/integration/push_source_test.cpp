// The push-source base (ganglion/http/push_source.hpp) on a real server: what a kind's handler
// decides of a request (publish one event or several, refuse, answer a handshake) reaches the
// producer and the metrics, the bus's verdict decides the answer, and the handler sees
// Authorization masked.

#include <gtest/gtest.h>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/http/push_source.hpp"
#include "ganglion/http/transport.hpp"
#include "http_request.hpp"
#include "recording_bus.hpp"
#include "test_support.hpp"

using namespace ganglion;

namespace {

class push_source_test : public ::testing::Test {
protected:
  void SetUp() override {
    http::runtime_options options;
    options.bind_host = "127.0.0.1";
    rt = std::make_shared<http::runtime>(options);
    port = test::free_port();
    route.webhook.endpoint = "/push";
    route.webhook.port = std::to_string(port);
    route.webhook.method = "POST";
  }

  std::unique_ptr<core::source> start() {
    core::source_context ctx;
    ctx.event_source_name = "saas";
    ctx.event_name = "example";
    ctx.type = "github";
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(test::temp_dir());
    ctx.metrics = &metrics;
    return http::start_push_source(*rt, ctx, route);
  }

  test::http_response post(const std::string& body, std::vector<std::string> headers = {}) {
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/push", body,
                              headers);
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "saas"}, {"event", "example"}, {"reason", reason}})
      .value();
  }

  std::shared_ptr<http::runtime> rt;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  http::push_route route;
  std::uint16_t port = 0;
};

TEST_F(push_source_test, publishes_the_handlers_data_as_an_event_of_the_kind_once_accepted) {
  std::string seen_authorization;
  route.handle = [&](const http::request& req) {
    seen_authorization = req.header("Authorization");
    return http::push_outcome::publish(R"({"body":)" + req.body + "}");
  };
  auto source = start();
  auto r = post(R"({"a":1})", {"Authorization: token s3cr3t"});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "success");
  ASSERT_TRUE(bus->arrived(1));
  auto e = bus->events().front();
  EXPECT_EQ(e.data, R"({"body":{"a":1}})");
  EXPECT_EQ(e.type, "github");
  EXPECT_EQ(seen_authorization, "*** Masked Auth Secret ***");
}

TEST_F(push_source_test, a_refusal_is_answered_and_counted_and_publishes_nothing) {
  route.handle = [](const http::request&) {
    return http::push_outcome::refuse(403, "signature", "signature mismatch");
  };
  auto source = start();
  auto r = post("{}");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.body, "signature mismatch");
  EXPECT_EQ(rejected("signature"), 1u);
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(push_source_test, a_handshake_is_answered_without_an_event_or_a_rejection) {
  route.handle = [](const http::request& req) {
    http::response reply{200, req.body, "application/json", {}};
    return http::push_outcome::answer(reply);
  };
  auto source = start();
  auto r = post(R"({"challenge":"x"})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"challenge":"x"})");
  EXPECT_EQ(bus->size(), 0u);
  EXPECT_EQ(rejected("bad_request"), 0u);
}

TEST_F(push_source_test, the_accepted_answer_is_the_kinds_and_a_refusing_bus_gets_503) {
  route.handle = [](const http::request&) {
    auto out = http::push_outcome::publish("{}");
    out.accepted = http::text_response(204, "");
    return out;
  };
  auto source = start();
  EXPECT_EQ(post("{}").status, 204);
  bus->refuse_next(1);
  EXPECT_EQ(post("{}").status, 503);
  EXPECT_EQ(rejected("saturated"), 1u);
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(push_source_test, the_method_is_checked_only_when_the_kind_asks) {
  route.handle = [](const http::request&) { return http::push_outcome::publish("{}"); };
  {
    auto source = start();
    EXPECT_EQ(test::http_request("PUT", "http://127.0.0.1:" + std::to_string(port) + "/push", "{}")
                .status,
              200);
  }
  route.check_method = true;
  auto source = start();
  EXPECT_EQ(test::http_request("PUT", "http://127.0.0.1:" + std::to_string(port) + "/push", "{}")
              .status,
            405);
  EXPECT_EQ(rejected("method"), 1u);
}

TEST_F(push_source_test, the_auth_secret_is_checked_before_the_handler) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/auth/token", "t0k3n");
  bool called = false;
  route.webhook.auth_secret = dsl::secret_key_selector{"auth", "token"};
  route.handle = [&](const http::request&) {
    called = true;
    return http::push_outcome::publish("{}");
  };
  core::source_context ctx;
  ctx.event_source_name = "saas";
  ctx.event_name = "example";
  ctx.type = "github";
  ctx.bus = bus;
  ctx.secrets = std::make_shared<core::secret_store>(dir);
  ctx.metrics = &metrics;
  auto source = http::start_push_source(*rt, ctx, route);
  EXPECT_EQ(post("{}", {"Authorization: Bearer wrong"}).status, 401);
  EXPECT_FALSE(called);
  EXPECT_EQ(post("{}", {"Authorization: Bearer t0k3n"}).status, 200);
  EXPECT_TRUE(called);
}

} // namespace

TEST_F(push_source_test, several_events_are_answered_once_the_bus_took_every_one) {
  route.handle = [](const http::request& req) {
    std::vector<std::string> data;
    for (char c : req.body)
      data.push_back(std::string("{\"part\":\"") + c + "\"}");
    return http::push_outcome::publish_all(std::move(data));
  };
  auto source = start();
  auto r = post("ab");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "success");
  ASSERT_EQ(bus->size(), 2u); // both held before the producer heard 200
  EXPECT_EQ(bus->events()[0].data, R"({"part":"a"})");
  EXPECT_EQ(bus->events()[1].data, R"({"part":"b"})");
  auto none = post("");
  EXPECT_EQ(none.status, 200);
  EXPECT_EQ(none.body, "success");
  EXPECT_EQ(bus->size(), 2u);
  bus->refuse_next(1);
  auto refused = post("cd"); // one of two refused: the producer must retry
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(rejected("saturated"), 1u);
  EXPECT_EQ(bus->size(), 3u);
}
