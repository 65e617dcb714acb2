// YAML → the grpc kinds' model (spec.generic.<event>, template.custom): every Argo field lands
// in its struct field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/grpc/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace grpc = ganglion::grpc;
using namespace ganglion::dsl::testing;

TEST(grpc_spec_mapping, generic_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  generic:
    example:
      url: "dns:///signals.internal:9000"
      config: |-
        key1: value1
        key2: value2
      jsonBody: true
      metadata: {team: a, env: prod}
      authSecret: {name: signals, key: token}
      filter: {expression: "true"}
    plain:
      url: 127.0.0.1:9000
      config: c
      insecure: true
    defaults:
      url: 127.0.0.1:9001
      config: d
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& g = event_spec<grpc::generic_spec>(es, "generic", "example");
  EXPECT_EQ(g.url, "dns:///signals.internal:9000");
  EXPECT_EQ(g.config, "key1: value1\nkey2: value2");
  EXPECT_FALSE(g.insecure);
  EXPECT_TRUE(g.json_body);
  EXPECT_EQ(g.metadata, (std::map<std::string, std::string>{{"env", "prod"}, {"team", "a"}}));
  ASSERT_TRUE(g.auth_secret);
  EXPECT_EQ(g.auth_secret->name, "signals");
  EXPECT_EQ(g.auth_secret->key, "token");
  EXPECT_EQ(es.spec.find("generic", "example")->filter->expression, "true");

  const auto& plain = event_spec<grpc::generic_spec>(es, "generic", "plain");
  EXPECT_EQ(plain.url, "127.0.0.1:9000");
  EXPECT_EQ(plain.config, "c");
  EXPECT_TRUE(plain.insecure);

  const auto& defaults = event_spec<grpc::generic_spec>(es, "generic", "defaults");
  EXPECT_FALSE(defaults.insecure);
  EXPECT_FALSE(defaults.json_body);
  EXPECT_TRUE(defaults.metadata.empty());
  EXPECT_FALSE(defaults.auth_secret);
}

TEST(grpc_spec_mapping, custom_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: pipeline
        custom:
          serverURL: tekton-trigger.argo-events.svc:9000
          secure: true
          certSecret: {name: trigger-tls, key: ca.crt}
          serverNameOverride: trigger.test
          spec:
            url: https://example.com/pipeline.yaml
            replicas: "3"
          parameters:
            - src: {dependencyName: d, dataKey: body.namespace}
              dest: metadata.namespace
          payload:
            - src: {dependencyName: d, dataKey: body}
              dest: order
      parameters:
        - src: {dependencyName: d, dataKey: body.url}
          dest: custom.spec.url
)");
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r));
  const auto& c = action_spec<grpc::custom_spec>(t);
  EXPECT_EQ(c.server_url, "tekton-trigger.argo-events.svc:9000");
  EXPECT_TRUE(c.secure);
  ASSERT_TRUE(c.cert_secret);
  EXPECT_EQ(c.cert_secret->name, "trigger-tls");
  EXPECT_EQ(c.cert_secret->key, "ca.crt");
  EXPECT_EQ(c.server_name_override, "trigger.test");
  EXPECT_EQ(c.spec, (std::map<std::string, std::string>{
                      {"replicas", "3"}, {"url", "https://example.com/pipeline.yaml"}}));
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "metadata.namespace");
  ASSERT_EQ(t.actions[0].payload.size(), 1u);
  EXPECT_EQ(t.actions[0].payload[0].src.data_key, "body");
}

TEST(grpc_spec_mapping, custom_trigger_defaults) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: plain
        custom:
          serverURL: 127.0.0.1:9000
          spec: {}
)");
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r));
  const auto& c = action_spec<grpc::custom_spec>(t);
  EXPECT_EQ(c.server_url, "127.0.0.1:9000");
  EXPECT_FALSE(c.secure);
  EXPECT_FALSE(c.cert_secret);
  EXPECT_EQ(c.server_name_override, "");
  EXPECT_TRUE(c.spec.empty());
  EXPECT_TRUE(t.actions[0].parameters.empty());
  EXPECT_TRUE(t.actions[0].payload.empty());
}
