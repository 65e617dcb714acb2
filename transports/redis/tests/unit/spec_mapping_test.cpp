// YAML → the redis kinds' models (spec.redis.<event>, spec.redisStream.<event>): every Argo
// field lands in its struct field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/redis/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace redis = ganglion::redis;
using namespace ganglion::dsl::testing;

TEST(redis_spec_mapping, redis_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  redis:
    orders:
      hostAddress: redis:6379
      password: {name: redis, key: password}
      username: app
      namespace: argo-events
      db: 2
      channels: [a, b]
      tls: {caCertSecret: {name: tls, key: ca}}
      metadata: {team: a}
      jsonBody: true
      filter: {expression: "true"}
    plain:
      hostAddress: redis:6379
      channels: [c]
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<redis::event_spec>(es, "redis", "orders");
  EXPECT_EQ(s.host_address, "redis:6379");
  EXPECT_EQ(s.password->name, "redis");
  EXPECT_EQ(s.password->key, "password");
  EXPECT_EQ(s.username, "app");
  EXPECT_EQ(s.namespace_name, "argo-events");
  EXPECT_EQ(s.db, 2);
  EXPECT_EQ(s.channels, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_TRUE(s.json_body);
  EXPECT_EQ(es.spec.find("redis", "orders")->filter->expression, "true");
  const auto& p = event_spec<redis::event_spec>(es, "redis", "plain");
  EXPECT_FALSE(p.password);
  EXPECT_EQ(p.db, 0);
  EXPECT_FALSE(p.json_body);
  EXPECT_FALSE(p.tls);
}

TEST(redis_spec_mapping, redis_stream_event_source_fields_and_defaults_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  redisStream:
    orders:
      hostAddress: redis:6379
      password: {name: redis, key: password}
      username: app
      db: 1
      streams: [s1, s2]
      maxMsgCountPerRead: 50
      consumerGroup: workers
      tls: {insecureSkipVerify: true}
      metadata: {team: a}
    plain:
      hostAddress: redis:6379
      streams: [s]
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<redis::stream_spec>(es, "redisStream", "orders");
  EXPECT_EQ(s.host_address, "redis:6379");
  EXPECT_EQ(s.password->key, "password");
  EXPECT_EQ(s.username, "app");
  EXPECT_EQ(s.db, 1);
  EXPECT_EQ(s.streams, (std::vector<std::string>{"s1", "s2"}));
  EXPECT_EQ(s.count(), 50);
  EXPECT_EQ(s.group(), "workers");
  EXPECT_TRUE(s.tls->insecure_skip_verify);
  EXPECT_EQ(s.metadata.at("team"), "a");
  const auto& p = event_spec<redis::stream_spec>(es, "redisStream", "plain");
  EXPECT_EQ(p.count(), 10);
  EXPECT_EQ(p.group(), "argo-events-cg");
}
