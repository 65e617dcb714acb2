// The slack trigger end to end against http_sink standing in for Slack's Web API: the exact
// chat.postMessage request, threads, and how Slack's refusals end an execution.

#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/slack/spec.hpp"
#include "ganglion/slack/transport.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* posted = R"({"ok":true,"channel":"C024BE91L","ts":"1700000000.000100"})";

class slack_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    secrets_dir = test::temp_dir();
    test::write_file(secrets_dir + "/slack-secret/token", "xoxb-test");
    spec.slack_token = dsl::secret_key_selector{"slack-secret", "token"};
    spec.channel = "#general";
    spec.message = "hello world";
    sink.set_answer(posted, "application/json");
    auto e = std::make_shared<core::event>();
    e->id = "0123456789abcdef0123456789abcdef";
    e->source = "webhook";
    e->type = "webhook";
    e->subject = "example";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"header":{},"body":{"channel":"ops","message":"deploy <done> & ok","empty":""}})";
    invocation.events["dep"] = e;
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "post";
    nlohmann::json slack{{"slackToken", {{"name", "slack-secret"}, {"key", "token"}}},
                         {"channel", spec.channel},
                         {"message", spec.message}};
    if (!spec.thread.message_aggregation_key.empty())
      slack["thread"] = {{"messageAggregationKey", spec.thread.message_aggregation_key}};
    trig.template_.actions = {test::make_action("slack", spec, slack)};
    core::trigger_context ctx;
    ctx.sensor_name = "sensor";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    return core::create_trigger_executor(factory, ctx);
  }

  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto result = done->get_future();
    executor.execute(invocation,
                     [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
    EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
    return result.get();
  }

  test::http_sink sink;
  std::shared_ptr<http::client> requests = std::make_shared<http::client>();
  core::trigger_factory factory =
    slack::make_trigger_factory(requests, slack::options{sink.url("/api/")});
  core::metrics_registry metrics;
  test::action_under_test<slack::trigger_spec> spec;
  dsl::trigger trig;
  core::trigger_invocation invocation;
  std::string secrets_dir;
};

dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "dep";
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

} // namespace

TEST_F(slack_trigger_test, posts_chat_post_message_as_slack_go_does) {
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 200");
  EXPECT_EQ(outcome.result, R"({"channel":"C024BE91L","ts":"1700000000.000100"})");
  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "POST");
  EXPECT_EQ(seen[0].target, "/api/chat.postMessage");
  EXPECT_EQ(seen[0].header("Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(seen[0].body, "attachments=%5B%5D&blocks=%5B%5D&channel=general&text=hello+world"
                          "&token=xoxb-test");
}

TEST_F(slack_trigger_test, parameters_set_the_channel_and_message_from_the_event) {
  spec.parameters = {from_data("body.channel", "channel"), from_data("body.message", "message")};
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(sink.requests().at(0).body,
            "attachments=%5B%5D&blocks=%5B%5D&channel=ops&text=deploy+%3Cdone%3E+%26+ok"
            "&token=xoxb-test");
}

TEST_F(slack_trigger_test, one_aggregation_key_posts_one_thread) {
  spec.thread.message_aggregation_key = "build-1";
  auto executor = create();
  ASSERT_TRUE(run(*executor).ok);
  ASSERT_TRUE(run(*executor).ok);
  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].body.find("thread_ts"), std::string::npos) << seen[0].body;
  EXPECT_NE(seen[1].body.find("&thread_ts=1700000000.000100&"), std::string::npos) << seen[1].body;
}

TEST_F(slack_trigger_test, slack_refusals_fail_the_execution) {
  auto executor = create();
  sink.set_answer(R"({"ok":false,"error":"channel_not_found"})", "application/json");
  auto refused = run(*executor);
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.error,
            "failed to post to channel general, slack chat.postMessage: channel_not_found");

  sink.set_status(429);
  sink.set_answer("", "text/plain", {{"Retry-After", "30"}});
  auto limited = run(*executor);
  EXPECT_FALSE(limited.ok);
  EXPECT_NE(limited.error.find("slack rate limit exceeded, retry after 30s"), std::string::npos)
    << limited.error;

  sink.set_status(503);
  auto down = run(*executor);
  EXPECT_FALSE(down.ok);
  EXPECT_NE(down.error.find("HTTP 503"), std::string::npos) << down.error;
  EXPECT_EQ(sink.requests().size(), 3u);
}

TEST_F(slack_trigger_test, nothing_to_post_fails_without_a_request) {
  spec.parameters = {from_data("body.empty", "message")};
  spec.message = "";
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("no text to post"), std::string::npos) << outcome.error;
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(slack_trigger_test, a_missing_token_secret_refuses_the_trigger) {
  spec.slack_token = dsl::secret_key_selector{"absent", "token"};
  EXPECT_THROW(create(), core::trigger_error);
}
