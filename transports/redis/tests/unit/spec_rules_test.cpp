// Rules of the redis kinds: Argo's redis and redis_stream validate.go plus ganglion's stricter
// checks. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(redis_spec_rules, redis_source_rules) {
  auto yaml = event_source_yaml(
    "  redis:\n    n:\n      password: {name: p, key: k}\n"
    "    m:\n      hostAddress: redis\n      channels: []\n      db: -1\n      username: u\n"
    "      tls: {clientCertSecret: {name: t, key: c}}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.n.hostAddress", n, "hostAddress is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.n.channels", n, "channels is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.n.namespace", n,
                             "namespace is required to read the password secret"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.m.hostAddress", position_of(yaml, "hostAddress"),
                             "missing port in address \"redis\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.m.channels", position_of(yaml, "channels"),
                             "channels must name at least one channel"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.m.db", position_of(yaml, "db:"),
                             "db must not be negative"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.m.username", position_of(yaml, "username"),
                             "username is sent only with a password", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.redis.m.tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
}

TEST(redis_spec_rules, redis_stream_source_rules) {
  auto yaml = event_source_yaml(
    "  redisStream:\n    n:\n      db: 0\n"
    "    m:\n      hostAddress: \"[::1]:6379\"\n      streams: []\n"
    "      maxMsgCountPerRead: -5\n      password: {name: p}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.redisStream.n.hostAddress", n, "hostAddress is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redisStream.n.streams", n, "streams is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redisStream.m.streams", position_of(yaml, "streams"),
                             "streams must name at least one stream"));
  EXPECT_TRUE(has_diagnostic(r, "spec.redisStream.m.maxMsgCountPerRead",
                             position_of(yaml, "maxMsgCountPerRead"),
                             "maxMsgCountPerRead must not be negative"));
  auto twice = event_source_yaml("  redisStream:\n    t:\n      hostAddress: r:6379\n"
                                 "      streams: [a, b, a]\n");
  EXPECT_TRUE(has_diagnostic(load(twice), "spec.redisStream.t.streams",
                             position_of(twice, "streams"), "stream \"a\" is listed twice"));
  // No namespace rule here: Argo's RedisStreamEventSource has no `namespace`.
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.redisStream.m.namespace"), std::string::npos) << d.to_string();
}

TEST(redis_spec_rules, the_corpus_shapes_are_clean) {
  EXPECT_TRUE(clean(load(event_source_yaml(
    "  redis:\n    example:\n      hostAddress: redis.argo-events.svc:6379\n      db: 0\n"
    "      channels: [FOO]\n"
    "  redisStream:\n    stream:\n      hostAddress: redis.argo-events.svc:6379\n"
    "      db: 0\n      streams: [FOO]\n"))));
}
