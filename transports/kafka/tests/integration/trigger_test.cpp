// The kafka trigger against librdkafka's mock cluster: what it produces, and how it fails.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "files.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/kafka/internal/producer_properties.hpp"
#include "ganglion/kafka/kafka_trigger.hpp"
#include "ganglion/kafka/spec.hpp"
#include "kind_manifests.hpp"
#include "kafka_broker.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

dsl::trigger_parameter from_data(const std::string& dependency, const std::string& key,
                                 const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = dependency;
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

/// A loopback port nothing listens on.
std::uint16_t closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t size = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string header(const test::kafka_record& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name)
      return v;
  return "(missing)";
}

class kafka_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    static int test_number = 0;
    topic = "out" + std::to_string(++test_number);
    broker->create_topic(topic, 3);
    spec.url = broker->bootstraps();
    spec.topic = topic;
    spec.payload = {from_data("dep", "body.name", "name"), from_data("dep", "body.n", "n")};
    auto e = std::make_shared<core::event>();
    e->id = "es:ev:b:orders:0:7";
    e->source = "es";
    e->type = "kafka";
    e->subject = "ev";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"topic":"orders","key":"k","body":{"name":"ada","n":42,"id":"key-7"}})";
    invocation.events["dep"] = e;
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "to-kafka";
    nlohmann::json kafka{{"url", spec.url},
                         {"topic", spec.topic},
                         {"requiredAcks", spec.required_acks},
                         {"compress", spec.compress},
                         {"flushFrequency", spec.flush_frequency_ms},
                         {"headers", spec.headers}};
    if (spec.partition)
      kafka["partition"] = *spec.partition;
    if (!spec.partitioning_key.empty())
      kafka["partitioningKey"] = spec.partitioning_key;
    trig.template_.actions = {test::make_action("kafka", spec, kafka)};
    core::trigger_context ctx;
    ctx.sensor_name = "sensor";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    return core::create_trigger_executor(kafka::make_kafka_trigger_factory(options), ctx);
  }

  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto result = done->get_future();
    executor.execute(invocation,
                     [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
    EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
    return result.get();
  }

  std::unique_ptr<test::kafka_broker> broker = std::make_unique<test::kafka_broker>();
  std::string topic;
  test::action_under_test<kafka::trigger_spec> spec;
  dsl::trigger trig;
  kafka::trigger_options options;
  core::trigger_invocation invocation;
  std::string secrets_dir = test::temp_dir();
};

TEST_F(kafka_trigger_test, produces_key_headers_and_payload_acked_by_all_and_compressed) {
  test::write_file(secrets_dir + "/kafka/token", "s3cret\n");
  spec.partitioning_key = "order-1";
  spec.partition = 2;
  spec.required_acks = -1;
  spec.compress = true;
  spec.headers = {{"X-Static", "one"}};
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"kafka", "token"};
  spec.secure_headers = {secure};
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, topic + "[2]@0");

  auto records = broker->consume_all(topic);
  ASSERT_EQ(records.size(), 1u);
  const auto& r = records[0];
  EXPECT_EQ(r.partition, 2);
  EXPECT_EQ(r.key, "order-1");
  // As Argo: a dataKey value that is not raw data is inserted as a string.
  EXPECT_EQ(json::parse(r.value.value()), json::parse(R"({"name":"ada","n":"42"})"));
  EXPECT_EQ(header(r, "X-Static"), "one");
  EXPECT_EQ(header(r, "X-Token"), "s3cret");

  auto props = kafka::detail::producer_properties(spec, options, "test");
  EXPECT_EQ(props["acks"], "all");
  EXPECT_EQ(props["compression.codec"], "snappy");
  EXPECT_EQ(props["linger.ms"], "5");
}

TEST_F(kafka_trigger_test, parameters_set_the_key_and_topic) {
  broker->create_topic(topic + "-routed", 1);
  spec.parameters = {from_data("dep", "body.id", "partitioningKey"),
                     from_data("dep", "topic", "topic")};
  spec.topic = "unused";
  invocation.events["dep"] = std::make_shared<core::event>(*invocation.events["dep"]);
  std::const_pointer_cast<core::event>(invocation.events["dep"])->data =
    R"({"topic":")" + topic + R"(-routed","body":{"name":"ada","n":1,"id":"key-7"}})";
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto records = broker->consume_all(topic + "-routed");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, "key-7");
}

TEST_F(kafka_trigger_test, preview_shows_topic_key_headers_and_payload) {
  test::write_file(secrets_dir + "/kafka/token", "s3cret");
  spec.partitioning_key = "k";
  spec.headers = {{"X-Static", "one"}};
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"kafka", "token"};
  spec.secure_headers = {secure};
  auto executor = create();
  EXPECT_EQ(executor->preview(invocation), "kafka " + topic + " partition any\n"
                                           "key: k\n"
                                           "X-Static: one\n"
                                           "X-Token: ***\n"
                                           "\n"
                                           R"({"name":"ada","n":"42"})");
  EXPECT_TRUE(broker->consume_all(topic).empty());
}

TEST_F(kafka_trigger_test, broker_down_fails_with_an_error_without_blocking) {
  spec.url = "127.0.0.1:" + std::to_string(closed_port());
  options.message_timeout = 1500ms;
  auto executor = create();
  auto done = std::make_shared<std::promise<core::trigger_outcome>>();
  auto result = done->get_future();
  executor->execute(invocation,
                    [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
  // execute() returned before the outcome is known.
  EXPECT_EQ(result.wait_for(0s), std::future_status::timeout);
  ASSERT_EQ(result.wait_for(20s), std::future_status::ready);
  auto outcome = result.get();
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("timed out"), std::string::npos) << outcome.error;
}

TEST_F(kafka_trigger_test, bad_specs_are_refused_at_creation) {
  auto refused = [&](const std::string& fragment) {
    try {
      create();
      ADD_FAILURE() << "created; expected an error with: " << fragment;
    } catch (const core::trigger_error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  spec.payload.clear();
  refused("payload parameters are not specified");
  spec.payload = {from_data("dep", "body.name", "name")};
  spec.topic.clear();
  refused("topic can't be empty");
  spec.topic = topic;
  dsl::secure_header secure;
  secure.name = "X-Token";
  secure.secret = dsl::secret_key_selector{"missing", "token"};
  spec.secure_headers = {secure};
  refused("secureHeaders");
}

} // namespace
