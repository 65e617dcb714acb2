// Rules of the kafka kind: Argo's kafka validate.go and validateKafkaTrigger, ganglion's stricter
// checks, and the warnings for fields ganglion ignores. Every diagnostic is checked at its path
// and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(kafka_spec_rules, kafka_source_needs_url_topic_and_partition_or_group) {
  auto yaml = event_source_yaml("  kafka:\n    k:\n      jsonBody: true\n"
                     "    p: {url: k, topic: t, partition: one}\n"
                     "    n: {url: k, topic: t, partition: \"-1\"}\n");
  auto r = load(yaml);
  const auto k = position_of(yaml, "k:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.url", k, "url is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.topic", k, "topic is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k", k, "needs partition or consumerGroup"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.p.partition", position_of(yaml, "partition: one"),
                             "partition must be a partition number (0, 1, …), got \"one\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.n.partition", position_of(yaml, "partition: \"-1"),
                             "got \"-1\""));
}

TEST(kafka_spec_rules, kafka_consumer_group_rules) {
  auto yaml = event_source_yaml("  kafka:\n    k:\n      url: k\n      topic: t\n      partition: \"x\"\n"
                     "      consumerGroup: {oldest: true, rebalanceStrategy: Sticky}\n"
                     "      limitEventsPerSecond: -5\n");
  auto r = load(yaml);
  const std::string at = "spec.kafka.k";
  EXPECT_TRUE(has_diagnostic(r, at + ".consumerGroup.groupName",
                             position_of(yaml, "consumerGroup"),
                             "consumerGroup.groupName is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".consumerGroup.rebalanceStrategy",
                             position_of(yaml, "rebalanceStrategy"),
                             "unknown rebalanceStrategy \"Sticky\": range is used",
                             severity::warning));
  // The group wins, as in Argo: the partition is not even parsed.
  EXPECT_TRUE(has_diagnostic(r, at + ".partition", position_of(yaml, "partition"),
                             "consumerGroup takes precedence", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".limitEventsPerSecond",
                             position_of(yaml, "limitEventsPerSecond"), "must not be negative"));
}

TEST(kafka_spec_rules, sasl_mechanisms_ganglion_cannot_run_are_refused) {
  auto yaml = event_source_yaml("  kafka:\n"
                     "    a:\n      url: k\n      topic: t\n      partition: \"0\"\n"
                     "      sasl: {mechanism: OAUTHBEARER, userSecret: {name: u, key: k}, "
                     "passwordSecret: {name: p, key: k}}\n"
                     "    b:\n      url: k\n      topic: t\n      partition: \"0\"\n"
                     "      sasl: {mechanism: GSSAPI, userSecret: {name: u, key: k}, "
                     "passwordSecret: {name: p, key: k}}\n"
                     "    c:\n      url: k\n      topic: t\n      partition: \"0\"\n"
                     "      sasl: {mechanism: scram-sha-256, passwordSecret: {name: p}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.a.sasl.mechanism", position_of(yaml, "mechanism"),
                             "SASL mechanism OAUTHBEARER is not supported by ganglion"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.b.sasl.mechanism", position_of(yaml, "mechanism", 2),
                             "SASL mechanism GSSAPI is not supported by ganglion"));
  const auto c = position_of(yaml, "mechanism", 3);
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.c.sasl.mechanism", c,
                             "mechanism must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got "
                             "\"scram-sha-256\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.c.sasl.userSecret", position_of(yaml, "sasl", 3),
                             "userSecret is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.c.sasl.passwordSecret.key",
                             position_of(yaml, "passwordSecret", 3), "key is required"));
}

TEST(kafka_spec_rules, kafka_fields_ganglion_ignores_are_warnings) {
  auto yaml = event_source_yaml("  kafka:\n    k:\n      url: k\n      topic: t\n      partition: \"0\"\n"
                     "      version: \"2.5.0\"\n"
                     "      schemaRegistry: {url: \"http://registry\", schemaId: 1}\n"
                     "      awsMskIamAuth: {region: eu-west-1}\n"
                     "      connectionBackoff: {duration: 10s, steps: 5}\n");
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  const std::string at = "spec.kafka.k";
  EXPECT_TRUE(has_diagnostic(r, at + ".version", position_of(yaml, "version"),
                             "ignored: librdkafka negotiates", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".schemaRegistry", position_of(yaml, "schemaRegistry"),
                             "ignored: ganglion does not decode Avro", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".awsMskIamAuth", position_of(yaml, "awsMskIamAuth"),
                             "ignored: AWS MSK IAM", severity::warning));
  // ganglion always reconnects with its own backoff; Argo's connectionBackoff is accepted.
  EXPECT_EQ(r.diagnostics.size(), 3u) << dump(r);
}

TEST(kafka_spec_rules, kafka_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        kafka:\n          requiredAcks: 2\n"
    "          partition: -1\n"
    "          payload:\n            - src: {dependencyName: nope}\n"
    "          secureHeaders:\n            - name: h\n"
    "          sasl: {mechanism: GSSAPI, userSecret: {name: u, key: k}, "
    "passwordSecret: {name: p, key: k}}\n"
    "    - template:\n        name: b\n        kafka:\n          url: k\n          topic: t\n"
    "          partition: 0\n          version: \"2.0.0\"\n"
    "          schemaRegistry: {url: \"http://r\", schemaId: 3}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.kafka";
  const auto kafka = position_of(yaml, "kafka:");
  EXPECT_TRUE(has_diagnostic(r, a + ".url", kafka, "url is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".topic", kafka, "topic is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".requiredAcks", position_of(yaml, "requiredAcks"),
                             "requiredAcks must be -1 or 0 (all in-sync replicas) or 1 (the "
                             "leader), got 2"));
  EXPECT_TRUE(has_diagnostic(r, a + ".partition", position_of(yaml, "partition"),
                             "partition must not be negative"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload[0].src.dependencyName",
                             position_of(yaml, "dependencyName: nope"),
                             "unknown dependency \"nope\""));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload[0].dest",
                             position_of(yaml, "src: {dependencyName: n"), "dest is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".secureHeaders[0].valueFrom", position_of(yaml, "name: h"),
                             "valueFrom needs one of secretKeyRef and configMapKeyRef"));
  EXPECT_TRUE(has_diagnostic(r, a + ".sasl.mechanism", position_of(yaml, "mechanism"),
                             "GSSAPI is not supported by ganglion"));
  const std::string b = "spec.triggers[1].template.kafka";
  EXPECT_TRUE(has_diagnostic(r, b + ".payload", position_of(yaml, "kafka:", 2),
                             "payload is required"));
  EXPECT_TRUE(has_diagnostic(r, b + ".partition", position_of(yaml, "partition: 0"),
                             "ganglion sends every message to partition 0", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, b + ".version", position_of(yaml, "version"), "ignored",
                             severity::warning));
  EXPECT_TRUE(has_diagnostic(r, b + ".schemaRegistry", position_of(yaml, "schemaRegistry"),
                             "ignored: ganglion does not encode Avro", severity::warning));
}
