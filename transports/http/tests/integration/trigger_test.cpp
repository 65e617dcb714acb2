// The http trigger executor end to end against http_sink.

#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/http/http_trigger.hpp"
#include "ganglion/http/spec.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

dsl::trigger_parameter from_data(const std::string& dependency, const std::string& key,
                                 const std::string& dest, bool raw = false) {
  dsl::trigger_parameter p;
  p.src.dependency_name = dependency;
  p.src.data_key = key;
  p.src.use_raw_data = raw;
  p.dest = dest;
  return p;
}

dsl::trigger_parameter with_operation(dsl::trigger_parameter p, const std::string& operation) {
  p.operation = operation;
  return p;
}

class http_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    secrets_dir = test::temp_dir();
    spec.url = sink.url("/hook");
    auto e = std::make_shared<core::event>();
    e->id = "0123456789abcdef0123456789abcdef";
    e->source = "webhook";
    e->type = "webhook";
    e->subject = "example";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"header":{},"body":{"name":"ada","count":42,"tags":["x","y"]}})";
    invocation.events["dep"] = e;
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "to-sink";
    nlohmann::json http{{"url", spec.url},
                        {"method", spec.method},
                        {"headers", spec.headers},
                        {"timeout", spec.timeout_seconds}};
    if (!spec.host.empty())
      http["host"] = spec.host;
    trig.template_.actions = {test::make_action("http", spec, http)};
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
  core::trigger_factory factory = http::make_http_trigger_factory(requests);
  core::metrics_registry metrics;
  test::action_under_test<http::trigger_spec> spec;
  dsl::trigger trig;
  core::trigger_invocation invocation;
  std::string secrets_dir;
};

TEST_F(http_trigger_test, posts_the_payload_built_from_the_event) {
  auto name = from_data("dep", "body.name", "user.name");
  auto count = from_data("dep", "body.count", "count", true);
  dsl::trigger_parameter type;
  type.src.dependency_name = "dep";
  type.src.context_key = "type";
  type.dest = "source_type";
  auto fallback = from_data("dep", "body.absent", "fallback");
  fallback.src.value = "default-value";
  spec.payload = {name, count, type, fallback};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 200");

  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "POST");
  EXPECT_EQ(seen[0].target, "/hook");
  EXPECT_EQ(seen[0].header("Content-Type"), "application/json");
  auto body = json::parse(seen[0].body);
  EXPECT_EQ(body["user"]["name"], "ada");
  EXPECT_EQ(body["count"], 42);
  EXPECT_EQ(body["source_type"], "webhook");
  EXPECT_EQ(body["fallback"], "default-value");
}

TEST_F(http_trigger_test, absent_dependency_is_left_out) {
  spec.payload = {from_data("dep", "body.name", "name"), from_data("other", "body.x", "x")};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(json::parse(sink.requests().at(0).body), json::parse(R"({"name":"ada"})"));
}

TEST_F(http_trigger_test, method_headers_secure_headers_and_basic_auth) {
  test::write_file(secrets_dir + "/api/token", "t0ken\n");
  test::write_file(secrets_dir + "/creds/user", "alice");
  test::write_file(secrets_dir + "/creds/pass", "pw");
  spec.method = "PUT";
  spec.headers = {{"X-Static", "one"}};
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"api", "token"};
  spec.secure_headers = {secure};
  spec.basic_auth = dsl::basic_auth{dsl::secret_key_selector{"creds", "user"},
                                     dsl::secret_key_selector{"creds", "pass"}};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  auto seen = sink.requests().at(0);
  EXPECT_EQ(seen.method, "PUT");
  EXPECT_EQ(seen.header("X-Static"), "one");
  EXPECT_EQ(seen.header("X-Token"), "t0ken");
  EXPECT_EQ(seen.header("Authorization"), "Basic YWxpY2U6cHc=");
}

TEST_F(http_trigger_test, any_status_is_ok_without_policy) {
  sink.set_status(500);
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok);
  EXPECT_EQ(outcome.detail, "HTTP 500");
}

TEST_F(http_trigger_test, status_policy_decides) {
  trig.policy = dsl::trigger_policy{};
  trig.policy->status = dsl::status_policy{{200, 201}};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  sink.set_status(500);
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.detail, "HTTP 500");
  EXPECT_NE(outcome.error.find("500"), std::string::npos) << outcome.error;
}

TEST_F(http_trigger_test, transport_errors_fail) {
  spec.url = "http://127.0.0.1:" + std::to_string(test::free_port()) + "/";
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_FALSE(outcome.error.empty());
}

TEST_F(http_trigger_test, timeout_fails) {
  sink.set_delay(3s);
  spec.timeout_seconds = 1;
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("timed out"), std::string::npos) << outcome.error;
}

TEST_F(http_trigger_test, resolution_error_fails_without_sending) {
  auto name = from_data("dep", "body.absent", "name");
  spec.payload = {name};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_FALSE(outcome.error.empty());
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(http_trigger_test, host_sets_the_virtual_host_header) {
  spec.host = "deploy.example.internal";
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  ASSERT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(sink.requests()[0].header("Host"), "deploy.example.internal");
}

TEST_F(http_trigger_test, dynamic_headers_are_refused_by_name) {
  spec.dynamic_headers = {from_data("dep", "body.name", "X-User")};
  try {
    create();
    FAIL() << "expected trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("dynamicHeaders"), std::string::npos) << e.what();
  }
}

TEST_F(http_trigger_test, missing_secret_is_refused) {
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"absent", "token"};
  spec.secure_headers = {secure};
  try {
    create();
    FAIL() << "expected trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("absent/token"), std::string::npos) << e.what();
  }
}

TEST_F(http_trigger_test, template_parameter_rewrites_the_url_from_event_data) {
  spec.url = sink.url("/users/");
  trig.parameters = {with_operation(from_data("dep", "body.name", "http.url"), "append")};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  ASSERT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(sink.requests()[0].target, "/users/ada");
  // Each execution starts again from the manifest's template.
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_EQ(sink.requests().at(1).target, "/users/ada");
}

TEST_F(http_trigger_test, template_parameters_rewrite_method_and_timeout) {
  auto method = from_data("dep", "body.absent", "http.method");
  method.src.value = "put";
  auto timeout = from_data("dep", "body.count", "http.timeout", true);
  trig.parameters = {method, timeout};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_EQ(sink.requests().at(0).method, "PUT");
}

TEST_F(http_trigger_test, resource_parameter_sets_a_header_from_event_data) {
  spec.headers = {{"X-Static", "one"}};
  spec.parameters = {from_data("dep", "body.name", "headers.X-User")};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  auto seen = sink.requests().at(0);
  EXPECT_EQ(seen.header("X-User"), "ada");
  EXPECT_EQ(seen.header("X-Static"), "one");
  EXPECT_EQ(seen.target, "/hook");
}

TEST_F(http_trigger_test, resource_parameters_apply_after_template_parameters) {
  spec.url = sink.url("/a");
  auto url = from_data("dep", "body.absent", "http.url");
  url.src.value = sink.url("/b");
  trig.parameters = {url};
  spec.parameters = {with_operation(from_data("dep", "body.name", "url"), "append")};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  EXPECT_EQ(sink.requests().at(0).target, "/bada");
}

TEST_F(http_trigger_test, append_and_prepend_operations) {
  spec.url = sink.url("/v1/");
  spec.headers = {{"X-Tag", "-suffix"}};
  trig.parameters = {with_operation(from_data("dep", "body.name", "http.url"), "append")};
  spec.parameters = {with_operation(from_data("dep", "body.count", "headers.X-Tag"), "prepend"),
                     with_operation(from_data("dep", "body.name", "headers.X-New"), "prepend")};
  auto executor = create();
  EXPECT_TRUE(run(*executor).ok);
  auto seen = sink.requests().at(0);
  EXPECT_EQ(seen.target, "/v1/ada");
  EXPECT_EQ(seen.header("X-Tag"), "42-suffix");
  EXPECT_EQ(seen.header("X-New"), "ada");
}

TEST_F(http_trigger_test, absent_dependency_uses_the_default_value_or_is_skipped) {
  spec.url = sink.url("/static");
  auto with_default = from_data("other", "body.path", "http.url");
  with_default.src.value = sink.url("/from-default");
  trig.parameters = {with_default};
  spec.parameters = {from_data("other", "body.name", "headers.X-Skipped")};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  auto seen = sink.requests().at(0);
  EXPECT_EQ(seen.target, "/from-default");
  EXPECT_EQ(seen.header("X-Skipped"), "");

  trig.parameters = {from_data("other", "body.path", "http.url")};
  auto skipped = create();
  EXPECT_TRUE(run(*skipped).ok);
  EXPECT_EQ(sink.requests().at(1).target, "/static");
}

TEST_F(http_trigger_test, url_that_ends_up_invalid_fails_without_sending) {
  trig.parameters = {from_data("dep", "body.name", "http.url")};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("invalid http trigger url 'ada'"), std::string::npos)
    << outcome.error;

  auto empty = from_data("other", "body.url", "http.url");
  empty.src.value = "";
  trig.parameters = {empty};
  auto emptied = create();
  outcome = run(*emptied);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("url can't be empty"), std::string::npos) << outcome.error;
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(http_trigger_test, header_of_the_wrong_type_fails_clearly) {
  spec.parameters = {from_data("dep", "body.count", "headers.X-Count", true)};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("http.headers.X-Count must be a string"), std::string::npos)
    << outcome.error;
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(http_trigger_test, preview_shows_the_exact_request_without_sending_it) {
  test::write_file(secrets_dir + "/api/token", "t0ken");
  test::write_file(secrets_dir + "/creds/user", "alice");
  test::write_file(secrets_dir + "/creds/pass", "pw");
  spec.url = sink.url("/base/");
  spec.method = "put";
  spec.headers = {{"X-Static", "one"}};
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"api", "token"};
  spec.secure_headers = {secure};
  spec.basic_auth = dsl::basic_auth{dsl::secret_key_selector{"creds", "user"},
                                     dsl::secret_key_selector{"creds", "pass"}};
  spec.payload = {from_data("dep", "body.name", "name")};
  spec.parameters = {from_data("dep", "body.count", "headers.X-Count")};
  trig.parameters = {with_operation(from_data("dep", "body.name", "http.url"), "append")};
  auto executor = create();
  EXPECT_EQ(executor->preview(invocation), "PUT " + sink.url("/base/ada") + "\n"
                                             "X-Count: 42\n"
                                             "X-Static: one\n"
                                             "X-Token: ***\n"
                                             "Content-Type: application/json\n"
                                             "Authorization: Basic ***\n"
                                             "\n"
                                             R"({"name":"ada"})");
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(http_trigger_test, preview_without_parameters_and_its_errors) {
  auto executor = create();
  EXPECT_EQ(executor->preview(invocation),
            "POST " + sink.url("/hook") + "\nContent-Type: application/json\n\n");
  spec.payload = {from_data("dep", "body.absent", "name")};
  auto unresolved = create();
  EXPECT_THROW(unresolved->preview(invocation), std::runtime_error);
  EXPECT_TRUE(sink.requests().empty());
}

TEST_F(http_trigger_test, bad_parameter_is_refused_at_creation_by_index) {
  trig.parameters = {with_operation(from_data("dep", "body.name", "http.url"), "merge")};
  try {
    create();
    FAIL() << "expected trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("parameters[0]"), std::string::npos) << e.what();
  }
}

} // namespace
