// The custom trigger against a triggers.Trigger server in this process (plaintext and TLS),
// through core::create_trigger_executor as the engine creates it.

#include <climits>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/test_trigger_server.hpp"
#include "files.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/grpc/spec.hpp"
#include "ganglion/grpc/transport.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

core::event_ptr order_event(const std::string& data) {
  auto e = std::make_shared<core::event>();
  e->id = core::new_event_id();
  e->source = "orders";
  e->type = "webhook";
  e->subject = "created";
  e->time = core::now_rfc3339();
  e->data = data;
  return e;
}

dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "order";
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

std::string read_text(const std::string& path) {
  std::ifstream in{path};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A self-signed certificate for DNS name trigger.test (not 127.0.0.1) and its key, PEM.
std::pair<std::string, std::string> trigger_test_certificate() {
  auto dir = test::temp_dir();
  auto command = "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=trigger.test "
                 "-addext subjectAltName=DNS:trigger.test -days 1 -keyout "
                 + dir + "/key.pem -out " + dir + "/cert.pem >/dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return {read_text(dir + "/cert.pem"), read_text(dir + "/key.pem")};
}

class grpc_custom_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    trig.template_.name = "pipeline";
    spec.spec = {
      {"url", "https://example.com/pipeline.yaml"}, {"name", "build"}, {"replicas", "3"}};
    invocation.events["order"] =
      order_event(R"({"body":{"id":7,"namespace":"billing","url":"https://example.com/b.yaml"}})");
  }

  std::unique_ptr<core::trigger_executor> create(const std::string& server_url) {
    spec.server_url = server_url;
    nlohmann::json json{{"serverURL", spec.server_url}, {"spec", spec.spec}};
    trig.template_.actions = {test::make_action("custom", spec, json)};
    core::trigger_context ctx;
    ctx.sensor_name = "ci";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return core::create_trigger_executor(ganglion::grpc::make_trigger_factory(opts), ctx);
  }

  /// Runs one execution and waits for its outcome.
  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto outcome = done->get_future();
    executor.execute(invocation, [done](core::trigger_outcome o) { done->set_value(o); });
    EXPECT_EQ(outcome.wait_for(15s), std::future_status::ready);
    return outcome.get();
  }

  dsl::trigger trig;
  test::action_under_test<ganglion::grpc::custom_spec> spec;
  core::trigger_invocation invocation;
  ganglion::grpc::options opts;
  std::string secrets = test::temp_dir();
};

TEST_F(grpc_custom_trigger_test, spec_goes_to_fetch_resource_as_sorted_yaml) {
  test::test_trigger_server server;
  ASSERT_TRUE(server.started());
  auto executor = create(server.address());
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  ASSERT_EQ(server.fetches().size(), 1u);
  EXPECT_EQ(server.fetches()[0],
            "name: build\nreplicas: \"3\"\nurl: https://example.com/pipeline.yaml\n");
  ASSERT_EQ(server.executes().size(), 1u);
  EXPECT_EQ(server.executes()[0].resource, server.fetches()[0]) << "executed as fetched";
  EXPECT_EQ(server.executes()[0].payload, "") << "no custom.payload: no payload";
  EXPECT_EQ(server.policies(), std::vector<std::string>{R"({"executed":true})"});
  EXPECT_EQ(outcome.detail, "Execute OK, policy success=true");
  EXPECT_EQ(outcome.result,
            R"({"response":{"executed":true},"policy":{"success":true,"message":"ok"}})");
}

TEST_F(grpc_custom_trigger_test, payload_goes_to_execute) {
  test::test_trigger_server server;
  spec.payload = {from_data("body.id", "id"), from_data("body.namespace", "ns")};
  auto executor = create(server.address());
  ASSERT_TRUE(run(*executor).ok);
  ASSERT_EQ(server.executes().size(), 1u);
  EXPECT_EQ(server.executes()[0].payload, R"({"id":"7","ns":"billing"})");
}

TEST_F(grpc_custom_trigger_test, custom_parameters_apply_to_the_fetched_json_resource) {
  test::test_trigger_server server;
  server.set_fetch_reply(R"({"kind":"PipelineRun","metadata":{"namespace":"default"}})");
  spec.parameters = {from_data("body.namespace", "metadata.namespace")};
  auto executor = create(server.address());
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  ASSERT_EQ(server.executes().size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(server.executes()[0].resource),
            nlohmann::json::parse(R"({"kind":"PipelineRun","metadata":{"namespace":"billing"}})"));
  EXPECT_EQ(server.fetches().at(0),
            "name: build\nreplicas: \"3\"\nurl: https://example.com/pipeline.yaml\n")
    << "custom.parameters do not touch the spec";
}

TEST_F(grpc_custom_trigger_test, a_resource_that_is_not_json_fails_when_parameters_apply) {
  test::test_trigger_server server;
  server.set_fetch_reply("kind: PipelineRun\n");
  spec.parameters = {from_data("body.namespace", "metadata.namespace")};
  auto executor = create(server.address());
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("fetched resource body is not valid JSON for trigger pipeline"),
            std::string::npos)
    << outcome.error;
  EXPECT_TRUE(server.executes().empty());
}

TEST_F(grpc_custom_trigger_test, template_parameters_rewrite_the_spec) {
  test::test_trigger_server server;
  trig.parameters = {from_data("body.url", "custom.spec.url")};
  auto executor = create(server.address());
  ASSERT_TRUE(run(*executor).ok);
  EXPECT_EQ(server.fetches().at(0),
            "name: build\nreplicas: \"3\"\nurl: https://example.com/b.yaml\n");
}

TEST_F(grpc_custom_trigger_test, policy_success_false_is_logged_and_still_a_success) {
  test::test_trigger_server server;
  server.set_policy(false, "pipeline is queued");
  server.set_execute_reply("started run 12");
  test::log_capture logs;
  auto executor = create(server.address());
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "Execute OK, policy success=false");
  EXPECT_EQ(
    outcome.result,
    R"({"response":"started run 12","policy":{"success":false,"message":"pipeline is queued"}})");
  EXPECT_EQ(logs.count("success=false (pipeline is queued)"), 1u);
}

TEST_F(grpc_custom_trigger_test, an_execute_error_status_fails_the_execution) {
  test::test_trigger_server server;
  server.fail_executes(1, {::grpc::StatusCode::FAILED_PRECONDITION, "no such pipeline"});
  auto executor = create(server.address());
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.error, "custom trigger ci/pipeline: Execute on " + server.address()
                             + " failed: FAILED_PRECONDITION: no such pipeline");
  EXPECT_TRUE(server.policies().empty()) << "no ApplyPolicy after a failed Execute";
  EXPECT_TRUE(run(*executor).ok) << "the next execution is a new one";
}

TEST_F(grpc_custom_trigger_test, a_server_that_is_down_fails_the_execution_without_blocking) {
  std::string address;
  {
    test::test_trigger_server gone;
    address = gone.address();
  }
  auto executor = create(address);
  std::promise<core::trigger_outcome> done;
  auto started = std::chrono::steady_clock::now();
  executor->execute(invocation, [&](core::trigger_outcome o) { done.set_value(o); });
  EXPECT_LT(std::chrono::steady_clock::now() - started, 200ms) << "execute() returned at once";
  auto outcome = done.get_future();
  ASSERT_EQ(outcome.wait_for(10s), std::future_status::ready);
  auto result = outcome.get();
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("FetchResource on " + address + " failed: UNAVAILABLE"),
            std::string::npos)
    << result.error;
}

TEST_F(grpc_custom_trigger_test, a_server_that_does_not_answer_fails_at_the_deadline) {
  test::test_trigger_server server;
  server.hold_executes();
  opts.call_timeout = 500ms;
  auto executor = create(server.address());
  auto started = std::chrono::steady_clock::now();
  auto outcome = run(*executor);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("Execute on " + server.address() + " failed: DEADLINE_EXCEEDED"),
            std::string::npos)
    << outcome.error;
}

TEST_F(grpc_custom_trigger_test, a_stopped_trigger_ends_its_calls_in_flight) {
  test::test_trigger_server server;
  server.hold_executes();
  auto executor = create(server.address());
  auto done = std::make_shared<std::promise<core::trigger_outcome>>();
  auto outcome = done->get_future();
  executor->execute(invocation, [done](core::trigger_outcome o) { done->set_value(o); });
  ASSERT_TRUE(server.wait_executes(1, 5s));
  auto started = std::chrono::steady_clock::now();
  executor.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
  ASSERT_EQ(outcome.wait_for(0s), std::future_status::ready) << "reported before it was gone";
  auto result = outcome.get();
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("CANCELLED"), std::string::npos) << result.error;
}

TEST_F(grpc_custom_trigger_test,
       tls_verifies_the_server_with_cert_secret_and_server_name_override) {
  auto [cert, key] = trigger_test_certificate();
  ASSERT_FALSE(cert.empty());
  test::test_trigger_server server{cert, key};
  ASSERT_TRUE(server.started());
  test::write_file(secrets + "/trigger-tls/ca.crt", cert);
  spec.secure = true;
  spec.cert_secret = dsl::secret_key_selector{"trigger-tls", "ca.crt"};
  spec.server_name_override = "trigger.test";
  auto executor = create(server.address());
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(server.executes().size(), 1u);

  // The certificate names trigger.test, not 127.0.0.1: without the override it is refused.
  spec.server_name_override.clear();
  auto unverified = create(server.address());
  auto refused = run(*unverified);
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("FetchResource on " + server.address() + " failed: UNAVAILABLE"),
            std::string::npos)
    << refused.error;
  EXPECT_EQ(server.fetches().size(), 1u);
}

TEST_F(grpc_custom_trigger_test, plaintext_to_a_tls_server_fails) {
  auto [cert, key] = trigger_test_certificate();
  test::test_trigger_server server{cert, key};
  auto executor = create(server.address());
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("UNAVAILABLE"), std::string::npos) << outcome.error;
}

TEST_F(grpc_custom_trigger_test, configurations_that_cannot_run_are_refused) {
  auto refused = [&](const std::string& url, const std::string& message) {
    try {
      create(url);
      ADD_FAILURE() << "expected a trigger_error for " << url;
    } catch (const core::trigger_error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused("", "custom trigger ci/pipeline: custom trigger gRPC server url is not defined");
  refused("http://trigger:9000", "custom.serverURL: 'http://trigger:9000' is not host:port");
  spec.secure = true;
  refused("127.0.0.1:9", "certSecret can't be nil when the trigger server connection is secure");
  spec.cert_secret = dsl::secret_key_selector{"missing", "ca.crt"};
  refused("127.0.0.1:9", "custom.certSecret");
  test::write_file(secrets + "/junk/ca.crt", "not a certificate\n");
  spec.cert_secret = dsl::secret_key_selector{"junk", "ca.crt"};
  refused("127.0.0.1:9", "secret junk/ca.crt holds no PEM certificate");
}

TEST_F(grpc_custom_trigger_test, check_reports_what_create_refuses) {
  spec.server_url = "";
  spec.secure = true;
  trig.template_.actions = {test::make_action("custom", spec)};
  core::trigger_context ctx;
  ctx.sensor_name = "ci";
  ctx.manifest = &trig;
  EXPECT_EQ(ganglion::grpc::check_trigger(ctx),
            (std::vector<std::string>{
              "custom trigger ci/pipeline: custom trigger gRPC server url is not defined",
              "custom trigger ci/pipeline: certSecret can't be nil when the trigger server "
              "connection is secure"}));
}

TEST_F(grpc_custom_trigger_test, preview_shows_the_requests_without_connecting) {
  spec.payload = {from_data("body.id", "id")};
  spec.parameters = {from_data("body.namespace", "metadata.namespace")};
  auto executor = create("127.0.0.1:9");
  EXPECT_EQ(executor->preview(invocation),
            "gRPC triggers.Trigger on 127.0.0.1:9 (plaintext)\n\n"
            "FetchResource, resource:\n"
            "name: build\nreplicas: \"3\"\nurl: https://example.com/pipeline.yaml\n\n"
            "custom.parameters (1) apply to the resource it returns (a JSON object)\n\n"
            "Execute, payload:\n{\"id\":\"7\"}\n\n"
            "ApplyPolicy with Execute's response");
}

} // namespace
