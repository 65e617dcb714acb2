// The awsLambda trigger against the stand-in Lambda endpoint (tests/support/aws, every
// signature verified): Invoke with the payload and invocation type, parameters on the function
// name, the status policy, function errors and AWS errors as failures.

#include <algorithm>
#include <future>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "aws/aws_server.hpp"
#include "files.hpp"
#include "ganglion/aws/spec.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "kind_manifests.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "dep";
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

class lambda_trigger : public ::testing::Test {
protected:
  void SetUp() override {
    test::write_file(secrets + "/aws/access", server.options().access_key);
    test::write_file(secrets + "/aws/secret", server.options().secret_key);
    server.put_function("hello", {R"({"greeting":"hi"})", ""});
    spec.function_name = "hello";
    spec.region = "us-east-1";
    spec.access_key = dsl::secret_key_selector{"aws", "access"};
    spec.secret_key = dsl::secret_key_selector{"aws", "secret"};
    spec.payload = {from_data("body.name", "name")};
    auto e = std::make_shared<core::event>();
    e->id = "0123456789abcdef0123456789abcdef";
    e->source = "webhook";
    e->type = "webhook";
    e->subject = "example";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"header":{},"body":{"name":"ada","fn":"other"}})";
    invocation.events["dep"] = e;
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "invoke";
    json lambda{{"functionName", spec.function_name}, {"region", spec.region}};
    if (!spec.role_arn.empty())
      lambda["roleARN"] = spec.role_arn;
    if (!spec.invocation_type.empty())
      lambda["invocationType"] = spec.invocation_type;
    trig.template_.actions = {test::make_action("awsLambda", spec, lambda)};
    core::trigger_context ctx;
    ctx.sensor_name = "sensor";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    aws::options opts;
    opts.endpoint = server.endpoint();
    return core::create_trigger_executor(aws::make_lambda_trigger_factory(requests, opts), ctx);
  }

  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto result = done->get_future();
    executor.execute(invocation,
                     [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
    EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
    return result.get();
  }

  /// The server's keys, and two roles: one handing out keys for 900 s, one for 30 s (less than
  /// the minute before expiry at which the trigger assumes a role again).
  static test::aws::aws_server_options with_roles() {
    test::aws::aws_server_options o;
    o.roles[some_role] = {};
    test::aws::assumable_role brief;
    brief.access_key = "ASIAGANGLIONBRIEF";
    brief.lifetime = 30s;
    o.roles[brief_role] = brief;
    return o;
  }

  static inline const std::string some_role = "arn:aws:iam::123456789012:role/some-role";
  static inline const std::string brief_role = "arn:aws:iam::123456789012:role/brief";
  test::aws::aws_server server{with_roles()};
  std::shared_ptr<http::client> requests = std::make_shared<http::client>();
  std::string secrets = test::temp_dir();
  core::metrics_registry metrics;
  test::action_under_test<aws::lambda_spec> spec;
  dsl::trigger trig;
  core::trigger_invocation invocation;
};

TEST_F(lambda_trigger, invokes_the_function_with_the_payload) {
  auto outcome = run(*create());
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 200");
  auto calls = server.invocations();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].function, "hello");
  EXPECT_EQ(calls[0].invocation_type, ""); // not sent when not set, as the SDK
  EXPECT_EQ(json::parse(calls[0].payload), json::parse(R"({"name":"ada"})"));
  for (const auto& r : server.requests())
    EXPECT_EQ(r.error_code, "");
}

TEST_F(lambda_trigger, a_role_arn_is_assumed_with_the_keys_and_its_credentials_sign_the_invoke) {
  spec.role_arn = some_role;
  auto executor = create();
  for (int i = 0; i < 2; ++i) {
    auto outcome = run(*executor);
    EXPECT_TRUE(outcome.ok) << outcome.error;
  }
  auto log = server.requests();
  ASSERT_EQ(log.size(), 3u); // the role assumed once, its keys kept while good
  EXPECT_EQ(log[0].service, "sts");
  EXPECT_EQ(log[0].action, "AssumeRole");
  EXPECT_EQ(log[0].error_code, "");
  std::regex sts_body{"Action=AssumeRole&DurationSeconds=900&RoleArn=arn%3Aaws%3Aiam%3A%"
                      "3A123456789012%3Arole%2Fsome-role&RoleSessionName=[0-9]{19}&"
                      "Version=2011-06-15"};
  EXPECT_TRUE(std::regex_match(log[0].body, sts_body)) << log[0].body;
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(log[i].action, "Invoke");
    EXPECT_EQ(log[i].error_code, "");
    EXPECT_NE(std::find(log[i].signed_headers.begin(), log[i].signed_headers.end(),
                        "x-amz-security-token"),
              log[i].signed_headers.end());
  }
}

TEST_F(lambda_trigger, a_role_about_to_expire_is_assumed_again_and_a_refused_one_fails) {
  spec.role_arn = brief_role;
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_TRUE(run(*executor).ok);
  auto log = server.requests();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[2].action, "AssumeRole");

  spec.role_arn = "arn:aws:iam::123456789012:role/not-mine";
  auto refused = run(*create());
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("assuming role arn:aws:iam::123456789012:role/not-mine"),
            std::string::npos)
    << refused.error;
  EXPECT_NE(refused.error.find("HTTP 403 AccessDenied"), std::string::npos) << refused.error;
  EXPECT_EQ(server.invocations().size(), 2u);
}

TEST_F(lambda_trigger, the_invocation_type_is_sent) {
  spec.invocation_type = "Event";
  auto outcome = run(*create());
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 202");
  EXPECT_EQ(server.invocations().at(0).invocation_type, "Event");
}

TEST_F(lambda_trigger, parameters_rewrite_the_function_name) {
  server.put_function("other");
  spec.parameters = {from_data("body.fn", "functionName")};
  auto outcome = run(*create());
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(server.invocations().at(0).function, "other");
}

TEST_F(lambda_trigger, a_function_error_is_a_failure) {
  server.put_function("hello", {R"({"errorMessage":"boom"})", "Unhandled"});
  auto outcome = run(*create());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("the function failed (Unhandled)"), std::string::npos)
    << outcome.error;
  EXPECT_NE(outcome.error.find("boom"), std::string::npos) << outcome.error;
}

TEST_F(lambda_trigger, a_missing_function_is_a_failure_with_aws_reason) {
  spec.function_name = "absent";
  auto outcome = run(*create());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("HTTP 404 ResourceNotFoundException"), std::string::npos)
    << outcome.error;
}

TEST_F(lambda_trigger, a_wrong_secret_key_is_refused_by_the_signature_check) {
  test::write_file(secrets + "/aws/secret", "wrong");
  auto outcome = run(*create());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("InvalidSignatureException"), std::string::npos) << outcome.error;
}

TEST_F(lambda_trigger, the_status_policy_decides) {
  trig.policy = dsl::trigger_policy{};
  trig.policy->status = dsl::status_policy{{202}};
  auto outcome = run(*create());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("HTTP 200 is not in policy.status.allow [202]"), std::string::npos)
    << outcome.error;
}

TEST_F(lambda_trigger, missing_secrets_fail_the_creation) {
  spec.access_key = dsl::secret_key_selector{"aws", "absent"};
  EXPECT_THROW(create(), core::trigger_error);
}

} // namespace
