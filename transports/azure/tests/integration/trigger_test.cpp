// The azureEventHubs and azureServiceBus triggers end to end: the executor, on the shared
// libcurl client, against the Azure REST stand-in (tests/support/azure_rest_server.hpp), which
// checks each request's SAS signature and records what it accepted.

#include <future>

#include <gtest/gtest.h>

#include "azure_rest_server.hpp"
#include "files.hpp"
#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/http/client.hpp"
#include "kind_manifests.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* host = "my-ns.servicebus.windows.net";
constexpr const char* key_name = "RootManageSharedAccessKey";
constexpr const char* key = "c2VjcmV0LWtleQ==";

class azure_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    server.add_entity(host, "hub");
    server.add_entity(host, "orders");
    server.add_entity(host, "events");
    secrets_dir = test::temp_dir();
    test::write_file(secrets_dir + "/eh/name", std::string{key_name} + "\n");
    test::write_file(secrets_dir + "/eh/key", std::string{key} + "\n");
    test::write_file(secrets_dir + "/eh/wrong", "bm90LXRoZS1rZXk=\n");
    test::write_file(secrets_dir + "/sb/cs", "Endpoint=sb://" + std::string{host}
                                               + "/;SharedAccessKeyName=" + key_name
                                               + ";SharedAccessKey=" + key + "\n");
    test::write_file(secrets_dir + "/sb/bad",
                     "Endpoint=sb://" + std::string{host} + "/;SharedAccessKey=TOPSECRET\n");
    invocation.payload = R"({"message":"hello"})";
  }

  std::unique_ptr<core::trigger_executor> create(const core::trigger_factory& factory,
                                                 dsl::trigger_action action) {
    trigger.template_.name = "to-azure";
    trigger.template_.actions = {std::move(action)};
    core::trigger_context ctx;
    ctx.sensor_name = "sensor";
    ctx.manifest = &trigger;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    return core::create_trigger_executor(factory, ctx);
  }

  std::unique_ptr<core::trigger_executor> event_hubs(const std::string& key_secret = "key") {
    test::action_under_test<azure::event_hubs_trigger_spec> spec;
    spec.fqdn = host;
    spec.hub_name = "hub";
    spec.shared_access_key_name = dsl::secret_key_selector{"eh", "name"};
    spec.shared_access_key = dsl::secret_key_selector{"eh", key_secret};
    return create(azure::make_event_hubs_trigger_factory(requests, opts),
                  test::make_action("azureEventHubs", spec));
  }

  std::unique_ptr<core::trigger_executor> service_bus(const std::string& queue,
                                                      const std::string& topic,
                                                      const std::string& secret = "cs") {
    test::action_under_test<azure::service_bus_trigger_spec> spec;
    spec.connection_string = dsl::secret_key_selector{"sb", secret};
    spec.queue_name = queue;
    spec.topic_name = topic;
    return create(azure::make_service_bus_trigger_factory(requests, opts),
                  test::make_action("azureServiceBus", spec));
  }

  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto result = done->get_future();
    executor.execute(invocation,
                     [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
    EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
    return result.get();
  }

  test::azure_rest_server server{key_name, key};
  azure::options opts{server.endpoint()};
  std::shared_ptr<http::client> requests = std::make_shared<http::client>();
  std::string secrets_dir;
  dsl::trigger trigger;
  core::metrics_registry metrics;
  core::trigger_invocation invocation;
};

TEST_F(azure_trigger_test, event_hubs_sends_the_payload_with_a_valid_signature) {
  auto executor = event_hubs();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "HTTP 201");
  auto accepted = server.accepted();
  ASSERT_EQ(accepted.size(), 1u);
  EXPECT_EQ(accepted[0].entity, "hub");
  EXPECT_EQ(accepted[0].target, "/hub/messages?timeout=60&api-version=2014-01");
  EXPECT_EQ(accepted[0].body, R"({"message":"hello"})");
  EXPECT_EQ(accepted[0].content_type, "application/atom+xml;type=entry;charset=utf-8");
  auto authorization = server.requests().at(0).header("Authorization");
  EXPECT_EQ(authorization.rfind("SharedAccessSignature sr=https%3a%2f%2fmy-ns.servicebus.windows"
                                ".net%2fhub&sig=",
                                0),
            0u)
    << authorization;
}

TEST_F(azure_trigger_test, a_wrong_key_is_refused_and_the_execution_fails_with_the_status) {
  auto executor = event_hubs("wrong");
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.error, "HTTP 401: ok");
  EXPECT_EQ(server.refusals(), std::vector<std::string>{"401: signature mismatch"});
  EXPECT_TRUE(server.accepted().empty());
}

TEST_F(azure_trigger_test, a_busy_service_fails_the_execution_and_the_retry_gets_through) {
  auto executor = service_bus("orders", "");
  server.fail_next(503);
  auto first = run(*executor);
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(first.detail, "HTTP 503");
  auto second = run(*executor);
  EXPECT_TRUE(second.ok) << second.error;
  EXPECT_EQ(server.accepted().size(), 1u);
}

TEST_F(azure_trigger_test, service_bus_sends_to_the_queue_without_a_content_type) {
  auto executor = service_bus("orders", "events");
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto accepted = server.accepted();
  ASSERT_EQ(accepted.size(), 1u);
  EXPECT_EQ(accepted[0].entity, "orders");
  EXPECT_EQ(accepted[0].target, "/orders/messages");
  EXPECT_EQ(accepted[0].body, R"({"message":"hello"})");
  EXPECT_EQ(accepted[0].content_type, "");
}

TEST_F(azure_trigger_test, service_bus_sends_to_the_topic_when_no_queue_is_named) {
  auto executor = service_bus("", "events");
  ASSERT_TRUE(run(*executor).ok) << testing::PrintToString(server.refusals());
  EXPECT_EQ(server.accepted().at(0).entity, "events");
}

TEST_F(azure_trigger_test, an_entity_azure_does_not_hold_fails_with_404) {
  auto executor = service_bus("missing", "");
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.detail, "HTTP 404");
}

TEST_F(azure_trigger_test, nothing_listening_is_an_execution_error_not_a_crash) {
  opts.endpoint = "http://127.0.0.1:" + std::to_string(test::free_port());
  auto executor = event_hubs();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_FALSE(outcome.error.empty());
}

TEST_F(azure_trigger_test, a_bad_connection_string_is_named_without_its_value) {
  try {
    service_bus("orders", "", "bad");
    FAIL() << "created";
  } catch (const core::trigger_error& e) {
    EXPECT_STREQ(e.what(), "azureServiceBus.connectionString: connection string: key "
                           "\"SharedAccessKeyName\" must not be empty");
  }
}

TEST_F(azure_trigger_test, a_missing_secret_and_a_bad_entity_name_are_refused_at_creation) {
  EXPECT_THROW(service_bus("orders", "", "absent"), core::trigger_error);
  try {
    service_bus("../admin?x=", "");
    FAIL() << "created";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string{e.what()}.find("is not an Azure entity name"), std::string::npos);
  }
}

} // namespace
