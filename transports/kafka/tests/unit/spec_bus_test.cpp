// The EventBus kind `kafka`: `spec.kafka` into kafka::bus_spec with its default topic, and
// its rules and ignored fields.

#include <gtest/gtest.h>

#include "ganglion/kafka/spec.hpp"
#include "model_test_kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion;
using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(kafka_bus_spec, kafka_bus_fields_and_default_topic) {
  auto r = load(event_bus_yaml(R"(  kafka:
    url: "k1:9092,k2:9092"
    topic: events
    tls: {insecureSkipVerify: true}
    sasl:
      mechanism: SCRAM-SHA-512
      userSecret: {name: u, key: k}
      passwordSecret: {name: p, key: k}
    consumerGroup: {groupName: sensors, oldest: true, rebalanceStrategy: roundrobin}
)"));
  const auto& b = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  const auto& k = bus_spec<kafka::bus_spec>(b);
  EXPECT_EQ(k.url, "k1:9092,k2:9092");
  EXPECT_EQ(k.topic, "events");
  EXPECT_TRUE(k.tls->insecure_skip_verify);
  EXPECT_EQ(k.sasl->mechanism, "SCRAM-SHA-512");
  EXPECT_EQ(k.consumer_group->group_name, "sensors");
  EXPECT_TRUE(k.consumer_group->oldest);
  EXPECT_EQ(k.consumer_group->rebalance_strategy, "roundrobin");

  auto plain = load(event_bus_yaml("  kafka: {url: k}\n"));
  EXPECT_EQ(bus_spec<kafka::bus_spec>(only<event_bus>(plain)).topic, "argo-events-default");
  auto named = load(event_bus_yaml("  kafka: {url: k}\n", "  name: main\n  namespace: prod\n"));
  EXPECT_EQ(bus_spec<kafka::bus_spec>(only<event_bus>(named)).topic, "prod-main");
}

TEST(kafka_bus_spec, kafka_bus_rules_and_ignored_fields) {
  const std::string yaml = event_bus_yaml("  kafka:\n    topic: t\n    version: \"2.8.0\"\n"
                                          "    partitioner: hash\n"
                                          "    sasl: {mechanism: OAUTHBEARER}\n"
                                          "    tls: {clientCertSecret: {name: t, key: c}}\n");
  auto r = load(yaml);
  const std::string at = "spec.kafka";
  EXPECT_TRUE(has_diagnostic(r, at + ".url", position_of(yaml, "kafka"), "url is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".sasl.mechanism", position_of(yaml, "mechanism"),
                             "OAUTHBEARER is not supported by ganglion"));
  EXPECT_TRUE(has_diagnostic(r, at + ".sasl.userSecret", position_of(yaml, "sasl"),
                             "userSecret is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
  EXPECT_TRUE(
    has_diagnostic(r, at + ".version", position_of(yaml, "version"), "ignored", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".partitioner", position_of(yaml, "partitioner"), "ignored",
                             severity::warning));
}
