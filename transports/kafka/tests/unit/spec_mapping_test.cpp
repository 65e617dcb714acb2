// YAML → the kafka kind's model (spec.kafka.<event>, template.kafka): every Argo field lands in
// its struct field, defaults follow Argo, and a source's `config` keeps only librdkafka properties.

#include <gtest/gtest.h>

#include "ganglion/kafka/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace kafka = ganglion::kafka;
using namespace ganglion::dsl::testing;

TEST(kafka_spec_mapping, kafka_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  kafka:
    orders:
      url: "k1:9092,k2:9092"
      topic: orders
      partition: "3"
      limitEventsPerSecond: 20
      jsonBody: true
      tls:
        caCertSecret: {name: tls, key: ca}
        clientCertSecret: {name: tls, key: crt}
        clientKeySecret: {name: tls, key: key}
        insecureSkipVerify: true
      sasl:
        mechanism: SCRAM-SHA-512
        userSecret: {name: kafka, key: user}
        passwordSecret: {name: kafka, key: password}
      metadata: {team: a}
      filter: {expression: "body.n > 1"}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& k = event_spec<kafka::event_spec>(es, "kafka", "orders");
  EXPECT_EQ(k.url, "k1:9092,k2:9092");
  EXPECT_EQ(k.topic, "orders");
  EXPECT_EQ(k.partition, "3");
  EXPECT_FALSE(k.consumer_group);
  EXPECT_EQ(k.limit_events_per_second, 20);
  EXPECT_TRUE(k.json_body);
  ASSERT_TRUE(k.tls);
  EXPECT_EQ(k.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(k.tls->client_cert_secret->key, "crt");
  EXPECT_EQ(k.tls->client_key_secret->name, "tls");
  EXPECT_TRUE(k.tls->insecure_skip_verify);
  ASSERT_TRUE(k.sasl);
  EXPECT_EQ(k.sasl->mechanism, "SCRAM-SHA-512");
  EXPECT_EQ(k.sasl->user_secret->key, "user");
  EXPECT_EQ(k.sasl->password_secret->key, "password");
  EXPECT_EQ(k.metadata.at("team"), "a");
  EXPECT_EQ(es.spec.find("kafka", "orders")->filter->expression, "body.n > 1");
  EXPECT_TRUE(k.config.empty());
}

TEST(kafka_spec_mapping, kafka_consumer_group_and_sasl_defaults) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  kafka:
    grouped:
      url: k:9092
      topic: t
      consumerGroup: {groupName: g1, oldest: true, rebalanceStrategy: sticky}
      sasl:
        userSecret: {name: kafka, key: user}
        passwordSecret: {name: kafka, key: password}
)");
  const auto& k = event_spec<kafka::event_spec>(only<event_source>(r), "kafka", "grouped");
  ASSERT_TRUE(clean(r));
  ASSERT_TRUE(k.consumer_group);
  EXPECT_EQ(k.consumer_group->group_name, "g1");
  EXPECT_TRUE(k.consumer_group->oldest);
  EXPECT_EQ(k.consumer_group->rebalance_strategy, "sticky");
  EXPECT_EQ(k.partition, "");
  EXPECT_EQ(k.limit_events_per_second, 0);
  EXPECT_FALSE(k.json_body);
  // Argo's GetMechanism: no mechanism means PLAIN.
  EXPECT_EQ(k.sasl->mechanism, "PLAIN");
}

TEST(kafka_spec_mapping, kafka_config_keeps_librdkafka_properties_and_warns_on_the_rest) {
  const std::string yaml = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  kafka:
    k:
      url: k:9092
      topic: t
      partition: "0"
      config: |
        fetch.min.bytes: 1024
        socket.keepalive.enable: yes
        client.id: ganglion-1
        consumer:
          fetch:
            min: 1
        group.id: sneaky
)";
  auto r = load(yaml);
  const auto& k = event_spec<kafka::event_spec>(only<event_source>(r), "kafka", "k");
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_EQ(k.config, (std::map<std::string, std::string>{{"client.id", "ganglion-1"},
                                                          {"fetch.min.bytes", "1024"},
                                                          {"socket.keepalive.enable", "true"}}));
  const std::string at = "spec.kafka.k.config";
  EXPECT_TRUE(has_diagnostic(r, at + ".consumer", position_of(yaml, "consumer:"),
                             "not a librdkafka property", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + "[\"group.id\"]", position_of(yaml, "group.id"),
                             "ganglion sets group.id itself", severity::warning));
}

TEST(kafka_spec_mapping, kafka_config_values_that_do_not_fit_are_errors_at_their_line) {
  const std::string yaml = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  kafka:
    k:
      url: k:9092
      topic: t
      partition: "0"
      config: |
        fetch.min.bytes: lots
        isolation.level: dirty
    bad:
      url: k:9092
      topic: t
      partition: "0"
      config: "a: [b"
)";
  auto r = load(yaml);
  const std::string at = "spec.kafka.k.config";
  EXPECT_TRUE(has_diagnostic(r, at + "[\"fetch.min.bytes\"]", position_of(yaml, "fetch.min"),
                             "fetch.min.bytes must be an integer, got \"lots\""));
  EXPECT_TRUE(has_diagnostic(r, at + "[\"isolation.level\"]", position_of(yaml, "isolation"),
                             "must be one of read_committed read_uncommitted"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.bad.config", position_of(yaml, "config: \"a"),
                             "invalid YAML in config"));
}

TEST(kafka_spec_mapping, kafka_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: produce
        kafka:
          url: "k1:9092,k2:9092"
          topic: out
          partition: 2
          partitioningKey: order-1
          requiredAcks: 1
          compress: true
          flushFrequency: 100
          tls: {insecureSkipVerify: true}
          sasl:
            mechanism: SCRAM-SHA-256
            userSecret: {name: kafka, key: user}
            passwordSecret: {name: kafka, key: password}
          headers: {x-source: ganglion}
          secureHeaders:
            - name: x-token
              valueFrom: {secretKeyRef: {name: hdr, key: token}}
          payload:
            - src: {dependencyName: d, dataKey: body}
              dest: order
          parameters:
            - src: {dependencyName: d, dataKey: body.key}
              dest: partitioningKey
)");
  const auto& t = only_template(r);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  ASSERT_EQ(t.actions.size(), 1u);
  EXPECT_EQ(t.actions[0].type, "kafka");
  const auto& k = action_spec<kafka::trigger_spec>(t);
  EXPECT_EQ(k.url, "k1:9092,k2:9092");
  EXPECT_EQ(k.topic, "out");
  EXPECT_EQ(k.partition, 2);
  EXPECT_EQ(k.partitioning_key, "order-1");
  EXPECT_EQ(k.required_acks, 1);
  EXPECT_TRUE(k.compress);
  EXPECT_EQ(k.flush_frequency_ms, 100);
  EXPECT_TRUE(k.tls->insecure_skip_verify);
  EXPECT_EQ(k.sasl->mechanism, "SCRAM-SHA-256");
  EXPECT_EQ(k.headers.at("x-source"), "ganglion");
  ASSERT_EQ(k.secure_headers.size(), 1u);
  EXPECT_EQ(k.secure_headers[0].name, "x-token");
  EXPECT_EQ(k.secure_headers[0].secret->key, "token");
  ASSERT_EQ(t.actions[0].payload.size(), 1u);
  EXPECT_EQ(t.actions[0].payload[0].dest, "order");
  EXPECT_EQ(t.actions[0].payload[0].src.data_key, "body");
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "partitioningKey");
}

TEST(kafka_spec_mapping, kafka_trigger_defaults_follow_argos_producer) {
  auto r = load(sensor_yaml("") + "    - template:\n        name: produce\n"
                                "        kafka: {url: k, topic: t, payload: []}\n");
  const auto& k = action_spec<kafka::trigger_spec>(only_template(r));
  ASSERT_TRUE(clean(r));
  EXPECT_FALSE(k.partition);
  EXPECT_EQ(k.partitioning_key, "");
  EXPECT_EQ(k.required_acks, -1); // sarama.WaitForAll when requiredAcks is absent
  EXPECT_FALSE(k.compress);
  EXPECT_EQ(k.flush_frequency_ms, 500);
  EXPECT_FALSE(k.tls);
  EXPECT_FALSE(k.sasl);
  EXPECT_TRUE(only_template(r).actions[0].payload.empty());

  const std::string zero = sensor_yaml("")
                           + "    - template:\n        name: produce\n"
                             "        kafka: {url: k, topic: t, payload: [], requiredAcks: 0}\n";
  auto z = load(zero);
  EXPECT_EQ(action_spec<kafka::trigger_spec>(only_template(z)).required_acks, -1);
  EXPECT_TRUE(has_diagnostic(z, "spec.triggers[0].template.kafka.requiredAcks",
                             position_of(zero, "requiredAcks"), "waits for all in-sync replicas",
                             severity::warning));
}
