// The awsLambda trigger against the stand-in Lambda endpoint (tests/support/aws, every
// signature verified): Invoke with the payload and invocation type, parameters on the function
// name, the status policy, function errors and AWS errors as failures.

#include <future>

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

  test::aws::aws_server server;
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

TEST_F(lambda_trigger, check_refuses_role_arn) {
  spec.role_arn = "arn:aws:iam::123456789012:role/some-role";
  try {
    create();
    FAIL() << "created";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("roleARN (STS AssumeRole) is not run"),
              std::string::npos)
      << e.what();
  }
}

} // namespace
