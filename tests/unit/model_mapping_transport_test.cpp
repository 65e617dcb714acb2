// YAML → typed model for the Kafka and NATS sources and triggers: every Argo field lands in its
// struct field, defaults follow Argo, and a source's `config` keeps only librdkafka properties.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string sensor_header = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n"
                                  "  name: s\nspec:\n  dependencies:\n"
                                  "    - {name: d, eventSourceName: es, eventName: e}\n"
                                  "  triggers:\n";

const trigger_template& only_template(const load_result& r) {
  static const trigger_template empty;
  const auto& s = only<sensor>(r);
  if (s.spec.triggers.size() != 1) {
    ADD_FAILURE() << "expected one trigger\n" << dump(r);
    return empty;
  }
  return s.spec.triggers[0].template_;
}

} // namespace

TEST(model_mapping_transport, kafka_event_source_fields_are_modelled) {
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
  EXPECT_TRUE(es.spec.unmodelled.empty());
  const auto& k = es.spec.kafka.at("orders");
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
  EXPECT_EQ(k.filter->expression, "body.n > 1");
  EXPECT_TRUE(k.config.empty());
}

TEST(model_mapping_transport, kafka_consumer_group_and_sasl_defaults) {
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
  const auto& k = only<event_source>(r).spec.kafka.at("grouped");
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

TEST(model_mapping_transport, kafka_config_keeps_librdkafka_properties_and_warns_on_the_rest) {
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
  const auto& k = only<event_source>(r).spec.kafka.at("k");
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

TEST(model_mapping_transport, kafka_config_values_that_do_not_fit_are_errors_at_their_line) {
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

TEST(model_mapping_transport, nats_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  nats:
    orders:
      url: nats://n:4222
      subject: orders.>
      queue: workers
      jsonBody: true
      tls: {caCertSecret: {name: tls, key: ca}}
      auth:
        basic:
          username: {name: nats, key: user}
          password: {name: nats, key: password}
      metadata: {team: a}
      filter: {expression: "true"}
    tokened:
      url: nats://n:4222
      subject: s
      auth: {token: {name: nats, key: token}}
    keyed:
      url: nats://n:4222
      subject: s
      auth: {nkey: {name: nats, key: seed}}
    creds:
      url: nats://n:4222
      subject: s
      auth: {credential: {name: nats, key: creds}}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_TRUE(es.spec.unmodelled.empty());
  const auto& n = es.spec.nats.at("orders");
  EXPECT_EQ(n.url, "nats://n:4222");
  EXPECT_EQ(n.subject, "orders.>");
  EXPECT_EQ(n.queue, "workers");
  EXPECT_TRUE(n.json_body);
  EXPECT_EQ(n.tls->ca_cert_secret->key, "ca");
  ASSERT_TRUE(n.auth && n.auth->basic);
  EXPECT_EQ(n.auth->basic->username->key, "user");
  EXPECT_EQ(n.auth->basic->password->key, "password");
  EXPECT_FALSE(n.auth->token);
  EXPECT_EQ(n.metadata.at("team"), "a");
  EXPECT_EQ(n.filter->expression, "true");
  EXPECT_EQ(es.spec.nats.at("tokened").auth->token->key, "token");
  EXPECT_EQ(es.spec.nats.at("keyed").auth->nkey->key, "seed");
  EXPECT_EQ(es.spec.nats.at("creds").auth->credential->key, "creds");
  EXPECT_FALSE(es.spec.nats.at("creds").json_body);
  EXPECT_EQ(es.spec.nats.at("creds").queue, "");
}

TEST(model_mapping_transport, kafka_trigger_fields_are_modelled) {
  auto r = load(sensor_header + R"(    - template:
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
  EXPECT_TRUE(t.unmodelled.empty());
  EXPECT_EQ(t.action_types, std::vector<std::string>{"kafka"});
  ASSERT_TRUE(t.kafka);
  const auto& k = *t.kafka;
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
  ASSERT_EQ(k.payload.size(), 1u);
  EXPECT_EQ(k.payload[0].dest, "order");
  EXPECT_EQ(k.payload[0].src.data_key, "body");
  ASSERT_EQ(k.parameters.size(), 1u);
  EXPECT_EQ(k.parameters[0].dest, "partitioningKey");
}

TEST(model_mapping_transport, kafka_trigger_defaults_follow_argos_producer) {
  auto r = load(sensor_header + "    - template:\n        name: produce\n"
                                "        kafka: {url: k, topic: t, payload: []}\n");
  const auto& k = *only_template(r).kafka;
  ASSERT_TRUE(clean(r));
  EXPECT_FALSE(k.partition);
  EXPECT_EQ(k.partitioning_key, "");
  EXPECT_EQ(k.required_acks, -1); // sarama.WaitForAll when requiredAcks is absent
  EXPECT_FALSE(k.compress);
  EXPECT_EQ(k.flush_frequency_ms, 500);
  EXPECT_FALSE(k.tls);
  EXPECT_FALSE(k.sasl);
  EXPECT_TRUE(k.payload.empty());

  const std::string zero = sensor_header
                           + "    - template:\n        name: produce\n"
                             "        kafka: {url: k, topic: t, payload: [], requiredAcks: 0}\n";
  auto z = load(zero);
  EXPECT_EQ(only_template(z).kafka->required_acks, -1);
  EXPECT_TRUE(has_diagnostic(z, "spec.triggers[0].template.kafka.requiredAcks",
                             position_of(zero, "requiredAcks"), "waits for all in-sync replicas",
                             severity::warning));
}

TEST(model_mapping_transport, nats_trigger_fields_are_modelled) {
  auto r = load(sensor_header + R"(    - template:
        name: publish
        nats:
          url: nats://n:4222
          subject: out
          tls: {caCertSecret: {name: tls, key: ca}}
          auth: {nkey: {name: nats, key: seed}}
          payload:
            - src: {dependencyName: d, dataKey: body}
              dest: order
          parameters:
            - src: {dependencyName: d, dataKey: body.subject}
              dest: subject
)");
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r));
  EXPECT_TRUE(t.unmodelled.empty());
  ASSERT_TRUE(t.nats);
  const auto& n = *t.nats;
  EXPECT_EQ(n.url, "nats://n:4222");
  EXPECT_EQ(n.subject, "out");
  EXPECT_EQ(n.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(n.auth->nkey->key, "seed");
  ASSERT_EQ(n.payload.size(), 1u);
  EXPECT_EQ(n.payload[0].src.data_key, "body");
  ASSERT_EQ(n.parameters.size(), 1u);
  EXPECT_EQ(n.parameters[0].dest, "subject");
}
