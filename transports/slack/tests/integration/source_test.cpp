// The slack source on a real server (the http transport's push base), with a recording bus:
// Slack's signed pushes become events; replayed, expired, tampered and unsigned ones are
// refused with 401, counted, and never published.

#include <chrono>

#include <gtest/gtest.h>

#include "client/signature.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/http/transport.hpp"
#include "ganglion/slack/spec.hpp"
#include "ganglion/slack/transport.hpp"
#include "kind_manifests.hpp"
#include "recording_bus.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* signing_secret = "8f742231b10e8888abcd99yyyzzz85a5";
constexpr const char* verification_token = "Jhj5dZrVaK7ZwHHjRyZWjbDl";

class slack_source_test : public ::testing::Test {
protected:
  void SetUp() override {
    port = test::free_port();
    secrets_dir = test::temp_dir();
    test::write_file(secrets_dir + "/slack-secret/token", verification_token);
    test::write_file(secrets_dir + "/slack-secret/signingSecret", signing_secret);
    es.metadata.name = "slack";
    spec.token = dsl::secret_key_selector{"slack-secret", "token"};
    spec.signing_secret = dsl::secret_key_selector{"slack-secret", "signingSecret"};
    spec.webhook.endpoint = "/slack";
    spec.webhook.method = "POST";
    spec.webhook.port = std::to_string(port);
    test::put_event(es, "slack", "example", spec);
    core::source_context ctx;
    ctx.event_source_name = "slack";
    ctx.event_name = "example";
    ctx.type = "slack";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    source = core::start_source(factory, ctx);
    ASSERT_TRUE(test::wait_http_ok("http://127.0.0.1:" + std::to_string(port) + "/health", 10s));
  }

  /// POSTs `body` signed at `sent` (now when unset) with `secret`.
  test::http_response post(const std::string& body, const std::string& content_type,
                           std::optional<std::int64_t> sent = std::nullopt,
                           std::string secret = signing_secret) {
    auto ts = std::to_string(sent.value_or(std::chrono::duration_cast<std::chrono::seconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count()));
    auto signature = "v0=" + dsl::hmac_sha256_hex(secret, "v0:" + ts + ":" + body);
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/slack", body,
                              {"Content-Type: " + content_type, "X-Slack-Request-Timestamp: " + ts,
                               "X-Slack-Signature: " + signature});
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "slack"}, {"event", "example"}, {"reason", reason}})
      .value();
  }

  std::uint16_t port = 0;
  std::string secrets_dir;
  dsl::event_source es;
  test::event_under_test<slack::event_spec> spec;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::shared_ptr<http::runtime> rt = std::make_shared<http::runtime>();
  core::source_factory factory = slack::make_source_factory(rt);
  std::unique_ptr<core::source> source;
};

} // namespace

TEST_F(slack_source_test, url_verification_is_answered_with_its_challenge) {
  auto r = post(std::string{R"({"token":")"} + verification_token
                  + R"(","challenge":"3eZbrw1aBm2rZgRN","type":"url_verification"})",
                "application/json");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "3eZbrw1aBm2rZgRN");
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(slack_source_test, an_event_callback_is_published_once_the_bus_accepted) {
  auto r = post(std::string{R"({"token":")"} + verification_token
                  + R"(","type":"event_callback","event":{"type":"app_mention","text":"hi"}})",
                "application/json");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "success");
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "slack");
  EXPECT_EQ(events[0].subject, "example");
  EXPECT_EQ(events[0].data, R"({"type":"app_mention","Data":{"type":"app_mention","text":"hi"}})");
}

TEST_F(slack_source_test, a_slash_command_is_published) {
  auto r =
    post("token=t&team_id=T1&command=%2Fdeploy&text=prod", "application/x-www-form-urlencoded");
  EXPECT_EQ(r.status, 200);
  auto data = bus->wait_for(1).at(0).data;
  EXPECT_NE(data.find(R"("command":"/deploy","text":"prod")"), std::string::npos) << data;
}

TEST_F(slack_source_test, tampered_expired_and_unsigned_requests_are_refused) {
  auto body = std::string{R"({"token":")"} + verification_token
              + R"(","type":"event_callback","event":{"type":"app_mention"}})";
  EXPECT_EQ(post(body, "application/json", std::nullopt, "another-secret").status, 401);
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count();
  EXPECT_EQ(post(body, "application/json", now - 301).status, 401);
  EXPECT_EQ(post(body, "application/json", now + 301).status, 401);
  auto unsigned_request = test::http_request("POST",
                                             "http://127.0.0.1:" + std::to_string(port) + "/slack",
                                             body, {"Content-Type: application/json"});
  EXPECT_EQ(unsigned_request.status, 401);
  EXPECT_EQ(rejected("signature"), 2u);
  EXPECT_EQ(rejected("timestamp"), 2u);
  auto wrong_token =
    post(R"({"token":"nope","type":"event_callback","event":{"type":"x"}})", "application/json");
  EXPECT_EQ(wrong_token.status, 401);
  EXPECT_EQ(rejected("token"), 1u);
  EXPECT_EQ(bus->size(), 0u);
}
