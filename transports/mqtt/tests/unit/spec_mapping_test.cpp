// YAML → the mqtt kind's model (spec.mqtt.<event>): every Argo field lands in its struct field.

#include <gtest/gtest.h>

#include "ganglion/mqtt/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace mqtt = ganglion::mqtt;
using namespace ganglion::dsl::testing;

TEST(mqtt_spec_mapping, mqtt_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  mqtt:
    example:
      url: ssl://mqtt.argo-events:8883
      topic: sensors/+/temperature
      clientId: "1234"
      jsonBody: true
      connectionBackoff: {duration: 10s, steps: 5, factor: 2, jitter: 0.2}
      tls: {caCertSecret: {name: tls, key: ca}, insecureSkipVerify: false}
      auth:
        username: {name: mqtt, key: user}
        password: {name: mqtt, key: password}
      metadata: {site: lab}
      filter: {expression: "true"}
    plain:
      url: tcp://m:1883
      topic: t
      clientId: c
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& m = event_spec<mqtt::event_spec>(es, "mqtt", "example");
  EXPECT_EQ(m.url, "ssl://mqtt.argo-events:8883");
  EXPECT_EQ(m.topic, "sensors/+/temperature");
  EXPECT_EQ(m.client_id, "1234");
  EXPECT_TRUE(m.json_body);
  ASSERT_TRUE(m.connection_backoff);
  EXPECT_EQ(m.connection_backoff->duration_ns, 10'000'000'000);
  EXPECT_EQ(m.connection_backoff->steps, 5);
  EXPECT_EQ(m.connection_backoff->factor, 2.0);
  EXPECT_EQ(m.connection_backoff->jitter, 0.2);
  ASSERT_TRUE(m.tls);
  EXPECT_EQ(m.tls->ca_cert_secret->name, "tls");
  ASSERT_TRUE(m.auth);
  EXPECT_EQ(m.auth->username->key, "user");
  EXPECT_EQ(m.auth->password->name, "mqtt");
  EXPECT_EQ(m.metadata.at("site"), "lab");
  EXPECT_EQ(es.spec.find("mqtt", "example")->filter->expression, "true");
  const auto& p = event_spec<mqtt::event_spec>(es, "mqtt", "plain");
  EXPECT_FALSE(p.json_body);
  EXPECT_FALSE(p.connection_backoff);
  EXPECT_FALSE(p.tls);
  EXPECT_FALSE(p.auth);
  EXPECT_TRUE(p.metadata.empty());
}
