// YAML → typed model for EventSources and EventBuses: webhook and calendar fields, and the JSON of
// the source types ganglion does not model yet (Kafka, NATS and the buses: model_mapping_transport
// and model_event_bus tests).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(model_mapping_source, event_source_webhook_and_calendar_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  eventBusName: bus
  replicas: 0
  webhook:
    hook:
      port: 12000
      endpoint: /hook
      method: POST
      url: http://example
      maxPayloadSize: 2048
      authSecret: {name: auth, key: token}
      serverCertSecret: {name: tls, key: crt}
      serverKeySecret: {name: tls, key: key}
      metadata: {a: b}
      filter: {expression: "body.x == 1"}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(es.spec.event_bus_name, "bus");
  EXPECT_EQ(es.spec.replicas, 1);
  const auto& w = es.spec.webhook.at("hook");
  EXPECT_EQ(w.port, "12000");
  EXPECT_EQ(w.endpoint, "/hook");
  EXPECT_EQ(w.method, "POST");
  EXPECT_EQ(w.url, "http://example");
  EXPECT_EQ(w.max_payload_size, 2048);
  EXPECT_EQ(w.auth_secret->key, "token");
  EXPECT_EQ(w.server_cert_secret->key, "crt");
  EXPECT_EQ(w.server_key_secret->key, "key");
  EXPECT_EQ(w.metadata.at("a"), "b");
  EXPECT_EQ(w.filter->expression, "body.x == 1");

  auto c = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: cal}
spec:
  calendar:
    tick:
      schedule: "*/5 * * * *"
      exclusionDates: ["EXDATE:20190102T150405Z"]
      timezone: America/New_York
      metadata: {k: v}
      persistence:
        catchup: {enabled: true, maxDuration: 5m}
        configMap: {name: cm, createIfNotExist: true}
)");
  const auto& cal = only<event_source>(c).spec.calendar.at("tick");
  ASSERT_TRUE(clean(c));
  EXPECT_EQ(cal.schedule, "*/5 * * * *");
  EXPECT_EQ(cal.exclusion_dates, std::vector<std::string>{"EXDATE:20190102T150405Z"});
  EXPECT_EQ(cal.timezone, "America/New_York");
  EXPECT_EQ(cal.metadata.at("k"), "v");
  ASSERT_TRUE(cal.persistence);
  EXPECT_TRUE(cal.persistence->catchup_enabled);
  EXPECT_EQ(cal.persistence->catchup_max_duration, "5m");
  EXPECT_EQ(cal.persistence->config_map_name, "cm");
  EXPECT_TRUE(cal.persistence->config_map_create_if_not_exist);
  EXPECT_EQ(webhook_event{}.max_payload_size, 1048576);
}

TEST(model_mapping_source, other_source_types_become_unmodelled_events_with_schema_typed_json) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: k}
spec:
  redisStream:
    first:
      hostAddress: redis:6379
      streams: [s]
      db: 2
      maxMsgCountPerRead: 5
      username: 10
      metadata: {n: 1}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(es.spec.unmodelled.size(), 1u);
  const auto& e = es.spec.unmodelled[0];
  EXPECT_EQ(e.type, "redisStream");
  EXPECT_EQ(e.name, "first");
  auto json = nlohmann::json::parse(e.json);
  EXPECT_EQ(json["username"], "10"); // a string field stays a string
  EXPECT_EQ(json["db"], 2);
  EXPECT_EQ(json["maxMsgCountPerRead"], 5);
  EXPECT_EQ(json["metadata"]["n"], "1");
}

TEST(model_mapping_source, event_bus_records_its_type_and_spec) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata: {name: default}
spec:
  jetstream:
    version: latest
    replicas: 3
    streamConfig: |
      maxAge: 24h
)");
  const auto& bus = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(bus.metadata.name, "default");
  EXPECT_EQ(bus.spec.type, "jetstream");
  auto json = nlohmann::json::parse(bus.spec.json);
  EXPECT_EQ(json["version"], "latest");
  EXPECT_EQ(json["replicas"], 3);
  EXPECT_EQ(json["streamConfig"], "maxAge: 24h\n");
}
