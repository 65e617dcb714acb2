// Rules of the mqtt kind: Argo's mqtt validate.go plus ganglion's checks of what libmosquitto
// can run. Every diagnostic is checked at its path and line:column.

#include <algorithm>

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(mqtt_spec_rules, url_topic_and_client_id_are_required) {
  auto yaml = event_source_yaml("  mqtt:\n    m:\n      jsonBody: true\n");
  auto r = load(yaml);
  const auto m = position_of(yaml, "m:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.url", m, "url is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.topic", m, "topic is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.clientId", m, "clientId is required"));
}

TEST(mqtt_spec_rules, url_needs_a_scheme_libmosquitto_speaks_and_a_port) {
  auto yaml = event_source_yaml("  mqtt:\n"
                                "    a: {url: \"ws://b:9001\", topic: t, clientId: c}\n"
                                "    b: {url: \"tcp://b\", topic: t, clientId: c}\n"
                                "    c: {url: \"http://b:1883\", topic: t, clientId: c}\n"
                                "    d: {url: \"tcp://u:p@b:1883\", topic: t, clientId: c}\n"
                                "    e: {url: \"b:1883\", topic: t, clientId: c}\n"
                                "    f: {url: \"mqtts://b:8883\", topic: t, clientId: c}\n"
                                "    g: {url: \"tcp://b:99999\", topic: t, clientId: c}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.a.url", position_of(yaml, "url: \"ws://"),
                             "(MQTT over WebSocket) is not supported by ganglion"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.b.url", position_of(yaml, "url: \"tcp://b\""),
                             "the url has no port"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.c.url", position_of(yaml, "url: \"http://"),
                             "unknown scheme http://"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.d.url", position_of(yaml, "url: \"tcp://u:p"),
                             "ignored: the user and password in the url", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.g.url", position_of(yaml, "url: \"tcp://b:99999"),
                             "is not a number from 1 to 65535"));
  auto at = [&](std::string_view path) {
    return std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                         [&](const auto& d) { return d.path == path; });
  };
  EXPECT_EQ(at("spec.mqtt.e.url"), 0) << dump(r); // no scheme: tcp://, as paho
  EXPECT_EQ(at("spec.mqtt.f.url"), 0) << dump(r);
}

TEST(mqtt_spec_rules, topic_wildcards_must_be_whole_levels) {
  auto yaml = event_source_yaml("  mqtt:\n"
                                "    a: {url: \"tcp://b:1883\", topic: \"a/#/b\", clientId: c}\n"
                                "    b: {url: \"tcp://b:1883\", topic: \"a/b+\", clientId: c}\n"
                                "    c: {url: \"tcp://b:1883\", topic: \"+/x/#\", clientId: c}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.a.topic", position_of(yaml, "topic: \"a/#"),
                             "# must be the whole last level of the topic filter"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.b.topic", position_of(yaml, "topic: \"a/b+"),
                             "+ must be a whole level of the topic filter"));
  EXPECT_FALSE(has_errors(load(event_source_yaml(
    "  mqtt:\n    c: {url: \"tcp://b:1883\", topic: \"+/x/#\", clientId: c}\n"))
                            .diagnostics));
}

TEST(mqtt_spec_rules, tls_and_auth_are_checked_both) {
  // Argo's validate returns after the TLS check and never checks auth when tls is set.
  auto yaml = event_source_yaml("  mqtt:\n    m:\n      url: \"ssl://b:8883\"\n"
                                "      topic: t\n      clientId: c\n"
                                "      tls: {clientCertSecret: {name: t, key: c}}\n"
                                "      auth: {username: {name: u, key: k}}\n"
                                "    p:\n      url: \"tcp://b:1883\"\n      topic: t\n"
                                "      clientId: c\n"
                                "      tls: {caCertSecret: {name: t, key: c}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.auth.password", position_of(yaml, "auth"),
                             "password is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.p.tls", position_of(yaml, "tls", 2),
                             "ignored: the url's scheme tcp:// connects without TLS",
                             severity::warning));
}

TEST(mqtt_spec_rules, a_bad_connection_backoff_duration_is_located) {
  auto yaml = event_source_yaml("  mqtt:\n    m:\n      url: \"tcp://b:1883\"\n      topic: t\n"
                                "      clientId: c\n      connectionBackoff: {duration: soon}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.mqtt.m.connectionBackoff.duration",
                             position_of(yaml, "duration"), "invalid duration \"soon\""));
}
