// Rules of the nats kind: Argo's nats validate.go and validateNATSTrigger plus ganglion's
// stricter checks. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(nats_spec_rules, nats_source_rules) {
  auto yaml = event_source_yaml("  nats:\n    n:\n      queue: \"\"\n"
                     "      auth:\n        basic: {username: {name: u, key: k}}\n"
                     "        token: {name: t, key: k}\n"
                     "    m:\n      url: \"nats://n\"\n      subject: s\n      auth: {}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.url", n, "url is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.subject", n, "subject is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.queue", position_of(yaml, "queue"),
                             "queue must not be empty when given"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.auth", position_of(yaml, "auth"),
                             "auth takes one of basic, token, nkey or credential, found basic, "
                             "token"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.auth.basic.password", position_of(yaml, "basic"),
                             "password is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.m.auth", position_of(yaml, "auth", 2),
                             "no authentication", severity::warning));
}

TEST(nats_spec_rules, nats_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        nats:\n          parameters:\n"
    "            - src: {dependencyName: d, dataKey: x}\n"
    "          auth: {token: {name: t, key: k}, credential: {name: c, key: k}}\n"
    "          tls: {clientCertSecret: {name: t, key: c}}\n"
    "    - template:\n        name: b\n"
    "        nats: {url: \"nats://n\", subject: s, payload: []}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.nats";
  const auto nats = position_of(yaml, "nats:");
  EXPECT_TRUE(has_diagnostic(r, a + ".url", nats, "url is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".subject", nats, "subject is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload", nats, "payload is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".parameters[0].dest", position_of(yaml, "src:"),
                             "dest is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".auth", position_of(yaml, "auth"),
                             "found token, credential"));
  EXPECT_TRUE(has_diagnostic(r, a + ".tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[1]"), std::string::npos) << d.to_string();
}
