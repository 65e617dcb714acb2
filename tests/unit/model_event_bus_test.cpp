// The EventBus: JetStream (managed and exotic) and Kafka settings in the typed model, the
// `streamConfig` YAML string read as Argo's viper does, their rules with locations inside the
// string, and the fingerprints a reload compares.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

std::string bus(const std::string& spec, const std::string& metadata = "  name: default\n") {
  return "apiVersion: argoproj.io/v1alpha1\nkind: EventBus\nmetadata:\n" + metadata + "spec:\n"
         + spec;
}

constexpr std::int64_t second = 1000000000;

} // namespace

TEST(model_event_bus, jetstream_stream_config_is_read_over_ganglions_defaults) {
  auto r = load(bus(R"(  jetstream:
    version: latest
    replicas: 3
    maxPayload: 2MB
    streamConfig: |
      maxMsgs: 50000
      MaxAge: 24h
      maxBytes: 1073741824
      replicas: 3
      duplicates: 2m
      retention: 1
      discard: old
)"));
  const auto& b = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(b.spec.type, "jetstream");
  EXPECT_EQ(nlohmann::json::parse(b.spec.json)["streamConfig"].get<std::string>().substr(0, 14),
            "maxMsgs: 50000");
  ASSERT_TRUE(b.spec.jetstream);
  const auto& js = *b.spec.jetstream;
  EXPECT_EQ(js.url, "");
  EXPECT_EQ(js.max_payload, 2 * 1024 * 1024);
  EXPECT_EQ(js.stream_name, "default");
  EXPECT_EQ(js.stream.max_msgs, 50000);
  EXPECT_EQ(js.stream.max_age_ns, 24 * 3600 * second);
  EXPECT_EQ(js.stream.max_bytes, 1073741824);
  EXPECT_EQ(js.stream.replicas, 3);
  EXPECT_EQ(js.stream.duplicates_ns, 120 * second);
  EXPECT_EQ(js.stream.retention, "interest");
  EXPECT_EQ(js.stream.discard, "old");
  EXPECT_FALSE(b.spec.kafka);

  auto defaults = load(bus("  jetstream:\n    version: latest\n"));
  const auto& d = only<event_bus>(defaults).spec.jetstream->stream;
  ASSERT_TRUE(clean(defaults));
  EXPECT_EQ(d.max_msgs, -1);
  EXPECT_EQ(d.max_age_ns, 168 * 3600 * second);
  EXPECT_EQ(d.duplicates_ns, 300 * second);
  EXPECT_EQ(d.retention, "limits");
  EXPECT_EQ(d.discard, "new");
  EXPECT_EQ(only<event_bus>(defaults).spec.jetstream->max_payload, 1048576);
}

TEST(model_event_bus, jetstream_exotic_connects_to_its_url) {
  auto r = load(bus(R"(  jetstreamExotic:
    url: "nats://a:4222,nats://b:4222"
    accessSecret: {name: js, key: auth}
    tls: {caCertSecret: {name: tls, key: ca}}
    streamConfig: "retention: workqueue"
)"));
  const auto& b = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(b.spec.type, "jetstreamExotic");
  const auto& js = *b.spec.jetstream;
  EXPECT_EQ(js.url, "nats://a:4222,nats://b:4222");
  EXPECT_EQ(js.access_secret->key, "auth");
  EXPECT_EQ(js.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(js.stream.retention, "workqueue");
}

TEST(model_event_bus, kafka_bus_fields_and_default_topic) {
  auto r = load(bus(R"(  kafka:
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
  ASSERT_TRUE(b.spec.kafka);
  const auto& k = *b.spec.kafka;
  EXPECT_EQ(k.url, "k1:9092,k2:9092");
  EXPECT_EQ(k.topic, "events");
  EXPECT_TRUE(k.tls->insecure_skip_verify);
  EXPECT_EQ(k.sasl->mechanism, "SCRAM-SHA-512");
  EXPECT_EQ(k.consumer_group->group_name, "sensors");
  EXPECT_TRUE(k.consumer_group->oldest);
  EXPECT_EQ(k.consumer_group->rebalance_strategy, "roundrobin");
  EXPECT_FALSE(b.spec.jetstream);

  auto plain = load(bus("  kafka: {url: k}\n"));
  EXPECT_EQ(only<event_bus>(plain).spec.kafka->topic, "argo-events-default");
  auto named = load(bus("  kafka: {url: k}\n", "  name: main\n  namespace: prod\n"));
  EXPECT_EQ(only<event_bus>(named).spec.kafka->topic, "prod-main");
}

TEST(model_event_bus, stream_config_errors_point_into_the_string) {
  const std::string yaml = bus(R"(  jetstream:
    version: latest
    maxPayload: lots
    streamConfig: |
      maxMsgs: many
      maxAge: forever
      retention: 7
      discard: newest
      replicas: 0
      maxBytes: -2
      storage: memory
)");
  auto r = load(yaml);
  const std::string at = "spec.jetstream.streamConfig";
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstream.maxPayload", position_of(yaml, "maxPayload"),
                             "invalid maxPayload \"lots\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".maxMsgs", position_of(yaml, "maxMsgs"),
                             "maxMsgs must be an integer, got \"many\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".maxAge", position_of(yaml, "maxAge"),
                             "invalid maxAge \"forever\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".retention", position_of(yaml, "retention"),
                             "retention must be 0 (limits), 1 (interest), 2 (workqueue), "
                             "got \"7\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".discard", position_of(yaml, "discard"),
                             "discard must be 0 (old), 1 (new), got \"newest\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".replicas", position_of(yaml, "replicas: 0"),
                             "stream replicas must be 1 to 5, got 0"));
  EXPECT_TRUE(has_diagnostic(r, at + ".maxBytes", position_of(yaml, "maxBytes"),
                             "maxBytes must be -1 (no limit) or more"));
  EXPECT_TRUE(has_diagnostic(r, at + ".storage", position_of(yaml, "storage"),
                             "unknown field \"storage\"", severity::warning));
}

TEST(model_event_bus, stream_config_windows_and_yaml_syntax) {
  const std::string windows = bus("  jetstreamExotic:\n    url: \"nats://n\"\n"
                                  "    streamConfig: \"maxAge: 1m\\nduplicates: 5m\"\n");
  auto r = load(windows);
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstreamExotic.streamConfig.duplicates",
                             position_of(windows, "streamConfig"),
                             "the duplicates window cannot be longer than maxAge"));
  const std::string broken = bus("  jetstreamExotic:\n    streamConfig: \"a: [\"\n");
  auto b = load(broken);
  EXPECT_TRUE(has_diagnostic(b, "spec.jetstreamExotic.url", position_of(broken, "jetstreamExotic"),
                             "url is required"));
  EXPECT_TRUE(has_diagnostic(b, "spec.jetstreamExotic.streamConfig",
                             position_of(broken, "streamConfig"),
                             "invalid YAML in streamConfig (its line 1)"));
  const std::string single = bus("  jetstreamExotic:\n    url: \"nats://n\"\n"
                                 "    streamConfig: \"replicas: 9\"\n");
  EXPECT_TRUE(has_diagnostic(load(single), "spec.jetstreamExotic.streamConfig.replicas",
                             position_of(single, "replicas"), "stream replicas must be 1 to 5"));
}

TEST(model_event_bus, kafka_bus_rules_and_ignored_fields) {
  const std::string yaml = bus("  kafka:\n    topic: t\n    version: \"2.8.0\"\n"
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
  EXPECT_TRUE(has_diagnostic(r, at + ".version", position_of(yaml, "version"), "ignored",
                             severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".partitioner", position_of(yaml, "partitioner"),
                             "ignored", severity::warning));
}

TEST(model_event_bus, fingerprints_cover_the_bus_and_each_kafka_and_nats_event) {
  auto b = load(bus("  kafka: {url: k}\n"));
  const auto& fb = b.documents.at(0).fingerprints;
  ASSERT_EQ(fb.size(), 1u);
  EXPECT_EQ(fb.begin()->first, "eventbus");
  auto other = load(bus("  kafka: {url: k2}\n"));
  EXPECT_NE(fb.at("eventbus"), other.documents.at(0).fingerprints.at("eventbus"));

  const std::string es = "apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n"
                         "  name: es\nspec:\n  kafka:\n"
                         "    k: {url: a, topic: t, partition: \"0\"}\n"
                         "  nats:\n    n: {url: \"nats://n\", subject: s}\n";
  auto r = load(es);
  ASSERT_TRUE(clean(r));
  const auto& f = r.documents.at(0).fingerprints;
  EXPECT_TRUE(f.contains("event/k"));
  EXPECT_TRUE(f.contains("event/n"));
  EXPECT_TRUE(f.contains("eventsource"));
  auto changed = es;
  changed.replace(changed.find("subject: s"), 10, "subject: x");
  auto reloaded = load(changed);
  const auto& g = reloaded.documents.at(0).fingerprints;
  EXPECT_EQ(f.at("event/k"), g.at("event/k"));
  EXPECT_NE(f.at("event/n"), g.at("event/n"));
}
