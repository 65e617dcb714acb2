// The openWhisk trigger executor end to end against http_sink, standing in for OpenWhisk's API.

#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/openwhisk/spec.hpp"
#include "ganglion/openwhisk/transport.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

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

class openwhisk_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    secrets_dir = test::temp_dir();
    test::write_file(secrets_dir + "/ow/token", "23bc46b1-71f6:123zO3xZCLrMN6v2");
    spec.host = "http://127.0.0.1:" + std::to_string(sink.port());
    spec.action_name = "hello";
    spec.auth_token = dsl::secret_key_selector{"ow", "token"};
    spec.payload = {from_data("body.name", "name")};
    auto e = std::make_shared<core::event>();
    e->id = "0123456789abcdef0123456789abcdef";
    e->source = "minio";
    e->type = "minio";
    e->subject = "example";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"body":{"name":"ada","action":"bye"}})";
    invocation.events["dep"] = e;
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "ow";
    json spec_json{{"host", spec.host},
                   {"version", spec.version},
                   {"namespace", spec.namespace_},
                   {"actionName", spec.action_name}};
    trig.template_.actions = {test::make_action("openWhisk", spec, spec_json)};
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
  core::trigger_factory factory = openwhisk::make_trigger_factory(requests);
  core::metrics_registry metrics;
  test::action_under_test<openwhisk::trigger_spec> spec;
  dsl::trigger trig;
  core::trigger_invocation invocation;
  std::string secrets_dir;
};

TEST_F(openwhisk_trigger_test, invokes_the_action_with_the_payload_and_the_key) {
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 200");
  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "POST");
  EXPECT_EQ(seen[0].target, "/api/v1/namespaces/_/actions/hello?blocking=true&result=true");
  EXPECT_EQ(seen[0].header("Authorization"), "Basic MjNiYzQ2YjEtNzFmNjoxMjN6TzN4WkNMck1ONnYy");
  EXPECT_EQ(seen[0].header("Content-Type"), "application/json");
  EXPECT_EQ(json::parse(seen[0].body), json::parse(R"({"name":"ada"})"));
}

TEST_F(openwhisk_trigger_test, version_namespace_and_parameters_shape_the_path) {
  spec.version = "v2";
  spec.namespace_ = "guest";
  spec.parameters = {from_data("body.action", "actionName")};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_EQ(sink.requests().at(0).target,
            "/api/v2/namespaces/guest/actions/bye?blocking=true&result=true");
}

TEST_F(openwhisk_trigger_test, fixed_version_and_namespace) {
  spec.version = "v2";
  spec.namespace_ = "guest";
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_EQ(sink.requests().at(0).target,
            "/api/v2/namespaces/guest/actions/hello?blocking=true&result=true");
}

TEST_F(openwhisk_trigger_test, an_error_status_fails_the_execution) {
  sink.set_status(502);
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.detail, "HTTP 502");
  EXPECT_NE(outcome.error.find("failed to invoke action hello, HTTP 502"), std::string::npos)
    << outcome.error;
}

TEST_F(openwhisk_trigger_test, status_policy_applies_to_2xx) {
  trig.policy = dsl::trigger_policy{};
  trig.policy->status = dsl::status_policy{{201}};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("policy.status.allow"), std::string::npos) << outcome.error;
}

TEST_F(openwhisk_trigger_test, unreachable_host_fails) {
  spec.host = "http://127.0.0.1:" + std::to_string(test::free_port());
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("failed to invoke action hello"), std::string::npos);
}

TEST_F(openwhisk_trigger_test, a_missing_key_or_secret_is_refused_at_creation) {
  spec.auth_token.reset();
  EXPECT_THROW(create(), core::trigger_error);
  spec.auth_token = dsl::secret_key_selector{"ow", "absent"};
  EXPECT_THROW(create(), core::trigger_error);
}

} // namespace
