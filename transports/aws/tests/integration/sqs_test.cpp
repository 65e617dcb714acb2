// The sqs source against the stand-in SQS endpoint (tests/support/aws, every signature
// verified): Argo's requests and event data, a message deleted only once the bus accepted it,
// a refused one offered again, jsonBody with and without dlq, queueAccountId, the session token,
// and the failures: a wrong key, a missing queue, an endpoint that goes away.

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include <nlohmann/json.hpp>

#include "aws/aws_server.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/aws/spec.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "kind_manifests.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class sqs_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "queues";
    server->create_queue("orders");
    write_keys(server->options().access_key, server->options().secret_key);
  }

  void write_keys(const std::string& access, const std::string& secret) {
    test::write_file(secrets + "/aws/access", access + "\n");
    test::write_file(secrets + "/aws/secret", secret + "\n");
  }

  test::event_under_test<aws::sqs_spec>& add(const std::string& name = "e") {
    auto& e = events[name];
    e.region = "us-east-1";
    e.queue = "orders";
    e.endpoint = server->endpoint();
    e.access_key = dsl::secret_key_selector{"aws", "access"};
    e.secret_key = dsl::secret_key_selector{"aws", "secret"};
    e.wait_time_seconds = 1;
    return e;
  }

  core::source_context context(const std::string& name = "e") {
    for (const auto& [event, spec] : events)
      test::put_event(es, "sqs", event, spec);
    core::source_context ctx;
    ctx.event_source_name = es.metadata.name;
    ctx.event_name = name;
    ctx.type = "sqs";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return ctx;
  }

  static aws::options fast() {
    aws::options o;
    o.min_retry_delay = 20ms;
    o.max_retry_delay = 200ms;
    o.request_timeout = 5s;
    return o;
  }

  std::unique_ptr<core::source> start(const std::string& name = "e") {
    return aws::make_sqs_source_factory(client, fast())(context(name));
  }

  /// The requests of `action` the server answered.
  std::vector<test::aws::aws_request> requests_of(const std::string& action) {
    std::vector<test::aws::aws_request> out;
    for (auto& r : server->requests())
      if (r.action == action)
        out.push_back(r);
    return out;
  }

  std::unique_ptr<test::aws::aws_server> server = std::make_unique<test::aws::aws_server>();
  std::shared_ptr<http::client> client = std::make_shared<http::client>();
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<aws::sqs_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
};

TEST_F(sqs_source, a_message_becomes_an_event_with_argos_data_and_is_deleted) {
  add().metadata = {{"team", "a"}};
  auto source = start();
  auto id = server->send_message("orders", "hello", {{"kind", {"String", "<new>", ""}}});
  ASSERT_TRUE(bus->arrived(1));
  auto e = bus->events().front();
  EXPECT_EQ(e.type, "sqs");
  EXPECT_EQ(e.source, "queues");
  EXPECT_EQ(e.subject, "e");
  EXPECT_EQ(e.data, R"({"messageId":")" + id
                      + R"(","messageAttributes":{"kind":{"BinaryListValues":null,)"
                        R"("BinaryValue":null,"DataType":"String","StringListValues":null,)"
                        R"("StringValue":"\u003cnew\u003e"}},"body":"aGVsbG8=",)"
                        R"("metadata":{"team":"a"}})");
  ASSERT_TRUE(test::eventually([&] { return server->deleted("orders").size() == 1; }));
  EXPECT_EQ(server->deleted("orders").front(), id);
  // Every request was signed and verified; ReceiveMessage asks what Argo asks.
  for (const auto& r : server->requests())
    EXPECT_EQ(r.error_code, "") << r.action;
  auto receive = nlohmann::json::parse(requests_of("ReceiveMessage").at(0).body);
  EXPECT_EQ(receive["AttributeNames"], nlohmann::json::parse(R"(["SentTimestamp"])"));
  EXPECT_EQ(receive["MessageAttributeNames"], nlohmann::json::parse(R"(["All"])"));
  EXPECT_EQ(receive["MaxNumberOfMessages"], 10);
  EXPECT_EQ(receive["VisibilityTimeout"], 120);
  EXPECT_EQ(receive["WaitTimeSeconds"], 1);
  EXPECT_EQ(receive["QueueUrl"], server->endpoint() + "/000000000000/orders");
  auto get_url = nlohmann::json::parse(requests_of("GetQueueUrl").at(0).body);
  EXPECT_EQ(get_url, nlohmann::json::parse(R"({"QueueName":"orders"})"));
}

TEST_F(sqs_source, json_body_publishes_the_json_itself) {
  add().json_body = true;
  auto source = start();
  server->send_message("orders", R"({ "a": 1 })");
  ASSERT_TRUE(bus->arrived(1));
  auto data = bus->data().front();
  EXPECT_NE(data.find(R"("body":{"a":1})"), std::string::npos) << data;
}

TEST_F(sqs_source, a_refused_message_is_not_deleted_and_is_offered_again) {
  add();
  bus->refuse_next(2);
  auto source = start();
  auto id = server->send_message("orders", "x");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->refused(), 2);
  ASSERT_TRUE(test::eventually([&] { return server->deleted("orders").size() == 1; }));
  // Offered again by the source itself: SQS delivered it once.
  EXPECT_EQ(requests_of("DeleteMessage").size(), 1u);
  EXPECT_EQ(server->deleted("orders").front(), id);
  EXPECT_EQ(bus->events().size(), 1u);
}

TEST_F(sqs_source, a_message_that_is_not_json_is_deleted_without_dlq) {
  add().json_body = true;
  auto source = start();
  auto bad = server->send_message("orders", "not json");
  ASSERT_TRUE(test::eventually([&] { return server->deleted("orders").size() == 1; }));
  EXPECT_EQ(server->deleted("orders").front(), bad);
  server->send_message("orders", "{}");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->events().size(), 1u);
}

TEST_F(sqs_source, a_message_that_is_not_json_stays_for_the_dead_letter_queue_with_dlq) {
  auto& e = add();
  e.json_body = true;
  e.dlq = true;
  auto source = start();
  auto bad = server->send_message("orders", "not json");
  ASSERT_TRUE(test::eventually([&] { return server->receive_count("orders", bad) == 1; }));
  server->send_message("orders", "{}");
  ASSERT_TRUE(bus->arrived(1));
  ASSERT_TRUE(test::eventually([&] { return server->deleted("orders").size() == 1; }));
  EXPECT_NE(server->deleted("orders").front(), bad);
  EXPECT_EQ(server->depth("orders"), 1u); // the bad one, in flight until its visibility ends
}

TEST_F(sqs_source, queue_account_id_asks_for_the_queue_of_that_account) {
  server->create_queue("shared", "123456789012");
  auto& e = add();
  e.queue = "shared";
  e.queue_account_id = "123456789012";
  auto source = start();
  server->send_message("shared", "x");
  ASSERT_TRUE(bus->arrived(1));
  auto get_url = nlohmann::json::parse(requests_of("GetQueueUrl").at(0).body);
  EXPECT_EQ(get_url["QueueOwnerAWSAccountId"], "123456789012");
}

TEST_F(sqs_source, the_session_token_is_sent_and_signed) {
  test::aws::aws_server_options options;
  options.session_token = "token-1";
  server = std::make_unique<test::aws::aws_server>(options);
  server->create_queue("orders");
  test::write_file(secrets + "/aws/token", "token-1\n");
  add().session_token = dsl::secret_key_selector{"aws", "token"};
  auto source = start();
  server->send_message("orders", "x");
  ASSERT_TRUE(bus->arrived(1));
  auto signed_headers = requests_of("ReceiveMessage").at(0).signed_headers;
  EXPECT_NE(std::find(signed_headers.begin(), signed_headers.end(), "x-amz-security-token"),
            signed_headers.end());
}

TEST_F(sqs_source, a_wrong_secret_key_fails_the_start_with_aws_reason) {
  write_keys(server->options().access_key, "not-the-secret");
  add();
  try {
    start();
    FAIL() << "started";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("InvalidSignatureException"), std::string::npos)
      << e.what();
  }
}

TEST_F(sqs_source, a_missing_queue_fails_the_start_with_aws_reason) {
  add().queue = "missing";
  try {
    start();
    FAIL() << "started";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("QueueDoesNotExist"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("queue missing"), std::string::npos) << e.what();
  }
}

TEST_F(sqs_source, missing_credentials_fail_the_start_naming_the_secret) {
  add().secret_key = dsl::secret_key_selector{"aws", "nope"};
  try {
    start();
    FAIL() << "started";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("sqs.e.secretKey"), std::string::npos) << e.what();
  }
}

TEST_F(sqs_source, the_source_fails_with_the_reason_when_the_endpoint_stays_away) {
  add();
  auto opts = fast();
  opts.lost_after = 300ms;
  std::mutex mutex;
  std::string failure;
  auto ctx = context();
  ctx.fail = [&](const std::string& why) {
    std::lock_guard guard{mutex};
    failure = why;
  };
  auto source = aws::make_sqs_source_factory(client, opts)(ctx);
  server.reset();
  ASSERT_TRUE(test::eventually([&] {
    std::lock_guard guard{mutex};
    return !failure.empty();
  }));
  EXPECT_NE(failure.find("ReceiveMessage"), std::string::npos) << failure;
}

TEST_F(sqs_source, a_role_arn_is_assumed_and_its_credentials_poll_and_delete) {
  test::aws::aws_server_options with_role;
  with_role.roles["arn:aws:iam::1:role/r"] = {};
  server = std::make_unique<test::aws::aws_server>(with_role);
  server->create_queue("orders");
  add().role_arn = "arn:aws:iam::1:role/r";
  auto opts = fast();
  opts.endpoint = server->endpoint(); // STS: --aws-endpoint
  auto source = aws::make_sqs_source_factory(client, opts)(context());
  auto id = server->send_message("orders", "hello");
  ASSERT_TRUE(bus->arrived(1));
  ASSERT_TRUE(test::eventually([&] { return server->deleted("orders").size() == 1; }));
  auto log = server->requests();
  ASSERT_GE(log.size(), 3u);
  EXPECT_EQ(log[0].action, "AssumeRole");
  EXPECT_EQ(log[1].action, "GetQueueUrl");
  for (const auto& r : log) {
    EXPECT_EQ(r.error_code, "") << r.action;
    if (r.service == "sqs") {
      EXPECT_NE(std::find(r.signed_headers.begin(), r.signed_headers.end(),
                          "x-amz-security-token"),
                r.signed_headers.end())
        << r.action;
    }
  }
  EXPECT_EQ(requests_of("AssumeRole").size(), 1u);
}

TEST_F(sqs_source, check_names_what_is_missing) {
  auto& e = add();
  e.region.clear();
  auto problems = aws::check_sqs_source(context());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("must specify region"), std::string::npos);
}

} // namespace
