// YAML → the http kind's model (spec.webhook.<event>, template.http): every Argo field lands in
// its struct field, and defaults follow Argo.

#include <gtest/gtest.h>

#include "ganglion/http/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;
namespace http = ganglion::http;

TEST(webhook_spec_mapping, every_webhook_field_is_modelled) {
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
  const auto& w = event_spec<http::webhook_spec>(es, "webhook", "hook");
  EXPECT_EQ(w.port, "12000");
  EXPECT_EQ(w.endpoint, "/hook");
  EXPECT_EQ(w.method, "POST");
  EXPECT_EQ(w.url, "http://example");
  EXPECT_EQ(w.max_payload_size, 2048);
  EXPECT_EQ(w.auth_secret->key, "token");
  EXPECT_EQ(w.server_cert_secret->key, "crt");
  EXPECT_EQ(w.server_key_secret->key, "key");
  EXPECT_EQ(w.metadata.at("a"), "b");
  EXPECT_EQ(es.spec.find("webhook", "hook")->filter->expression, "body.x == 1");
  EXPECT_EQ(http::webhook_spec{}.max_payload_size, 1048576);
}
