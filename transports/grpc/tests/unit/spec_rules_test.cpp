// Rules of the grpc kinds: Argo's generic ValidateEventSource and validateCustomTrigger plus
// ganglion's checks (the url's form, secrets, parameters). Every diagnostic is checked at its
// path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

/// Fails the test when `r` has a diagnostic under `path`.
void expect_nothing_under(const load_result& r, const std::string& path) {
  for (const auto& d : r.diagnostics)
    EXPECT_NE(d.path.rfind(path, 0), 0u) << d.to_string();
}

} // namespace

TEST(grpc_spec_rules, generic_needs_url_and_config) {
  auto yaml = event_source_yaml("  generic:\n    g:\n      jsonBody: true\n"
                                "    ok: {url: \"127.0.0.1:9000\", config: c}\n");
  auto r = load(yaml);
  const auto g = position_of(yaml, "g:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.g.url", g, "server url can't be empty"));
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.g.config", g, "config can't be empty"));
  expect_nothing_under(r, "spec.generic.ok");
}

TEST(grpc_spec_rules, generic_url_must_be_a_grpc_target) {
  auto yaml = event_source_yaml("  generic:\n"
                                "    a: {url: \"http://signals:9000\", config: c}\n"
                                "    b: {url: \"signals\", config: c}\n"
                                "    c: {url: \"ipv4:10.0.0.1\", config: c}\n"
                                "    d: {url: \"dns:///signals.internal:9000\", config: c}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.a.url", position_of(yaml, "url", 1),
                             "'http://signals:9000' is not host:port"));
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.b.url", position_of(yaml, "url", 2),
                             "'signals' is not host:port with a port from 1 to 65535"));
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.c.url", position_of(yaml, "url", 3),
                             "'10.0.0.1' is not an IPv4 address with a port"));
  expect_nothing_under(r, "spec.generic.d");
}

TEST(grpc_spec_rules, generic_auth_secret_needs_name_and_key) {
  auto yaml = event_source_yaml("  generic:\n    g:\n      url: \"127.0.0.1:9000\"\n"
                                "      config: c\n      authSecret: {name: signals}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.g.authSecret.key", position_of(yaml, "authSecret"),
                             "key is required"));
}

TEST(grpc_spec_rules, generic_bearer_token_over_plaintext_is_a_warning) {
  auto yaml = event_source_yaml("  generic:\n    g:\n      url: \"127.0.0.1:9000\"\n"
                                "      config: c\n      insecure: true\n"
                                "      authSecret: {name: signals, key: token}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.generic.g.authSecret", position_of(yaml, "authSecret"),
                             "the bearer token is sent in plain text", severity::warning));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.level, severity::warning) << d.to_string();
}

TEST(grpc_spec_rules, custom_needs_server_url_and_spec) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverNameOverride: trigger.test\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.custom";
  const auto custom = position_of(yaml, "custom:");
  EXPECT_TRUE(
    has_diagnostic(r, a + ".serverURL", custom, "custom trigger gRPC server url is not defined"));
  EXPECT_TRUE(has_diagnostic(r, a + ".spec", custom, "trigger body can't be empty"));
}

TEST(grpc_spec_rules, custom_server_url_must_be_a_grpc_target) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverURL: \"https://trigger:9000\"\n          spec: {}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.custom.serverURL",
                             position_of(yaml, "serverURL"),
                             "'https://trigger:9000' is not host:port"));
}

TEST(grpc_spec_rules, custom_secure_needs_a_cert_secret) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverURL: \"trigger:9000\"\n          spec: {}\n"
                          "          secure: true\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.custom.certSecret",
                             position_of(yaml, "custom:"),
                             "certSecret can't be nil when the trigger server connection is "
                             "secure"));
}

TEST(grpc_spec_rules, custom_cert_secret_needs_name_and_key) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverURL: \"trigger:9000\"\n          spec: {}\n"
                          "          secure: true\n          certSecret: {key: ca.crt}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.custom.certSecret.name",
                             position_of(yaml, "certSecret"), "name is required"));
}

TEST(grpc_spec_rules, custom_parameters_and_payload_are_checked) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverURL: \"trigger:9000\"\n          spec: {}\n"
                          "          parameters:\n"
                          "            - src: {dependencyName: d, dataKey: body.x}\n"
                          "          payload:\n"
                          "            - src: {dependencyName: nobody, dataKey: body}\n"
                          "              dest: x\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.custom";
  EXPECT_TRUE(
    has_diagnostic(r, a + ".parameters[0].dest", position_of(yaml, "src:"), "dest is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload[0].src.dependencyName",
                             position_of(yaml, "dependencyName: nobody"),
                             "unknown dependency \"nobody\""));
}

TEST(grpc_spec_rules, a_complete_custom_trigger_is_clean) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        custom:\n"
                          "          serverURL: \"trigger:9000\"\n"
                          "          secure: true\n"
                          "          certSecret: {name: tls, key: ca.crt}\n"
                          "          serverNameOverride: trigger.test\n"
                          "          spec: {url: \"https://x\"}\n"
                          "          payload:\n"
                          "            - src: {dependencyName: d, dataKey: body}\n"
                          "              dest: x\n");
  auto r = load(yaml);
  EXPECT_TRUE(clean(r));
}
