// Rules of the webhook source (Argo's webhook validate.go): endpoint, port, method, payload size,
// TLS, and one event per port and endpoint (per endpoint with every webhook on one port).

#include <gtest/gtest.h>

#include "ganglion/http/spec.hpp"
#include "model_test_kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(webhook_spec_rules, a_valid_webhook_source_has_no_diagnostics) {
  EXPECT_TRUE(clean(load(event_source_yaml("  webhook:\n    a: {port: \"12000\", endpoint: /a, method: POST}\n"
                                "    b: {port: \"12000\", endpoint: /b, method: POST}\n"
                                "    c: {port: \"13000\", endpoint: /a, method: GET}\n"))));
}

TEST(webhook_spec_rules, webhook_endpoint_port_and_method) {
  auto yaml = event_source_yaml("  webhook:\n    alpha:\n      endpoint: hook\n      port: \"http\"\n"
                     "    beta:\n      port: \"70000\"\n      method: POST\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.alpha.endpoint", position_of(yaml, "endpoint"),
                             "must start with \"/\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.alpha.port", position_of(yaml, "port"),
                             "a number from 1 to 65535, got \"http\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.alpha.method", position_of(yaml, "alpha:"),
                             "method is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.beta.endpoint", position_of(yaml, "beta:"),
                             "endpoint is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.beta.port", position_of(yaml, "port", 2),
                             "got \"70000\""));
  auto missing_port = event_source_yaml("  webhook:\n    alpha: {endpoint: /a, method: POST}\n");
  EXPECT_TRUE(has_diagnostic(load(missing_port), "spec.webhook.alpha.port",
                             position_of(missing_port, "alpha:"), "port is required"));
}

TEST(webhook_spec_rules, webhook_max_payload_size_must_be_positive) {
  auto yaml = event_source_yaml("  webhook:\n    a:\n      port: \"1\"\n      endpoint: /a\n"
                     "      method: POST\n      maxPayloadSize: 0\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.webhook.a.maxPayloadSize",
                             position_of(yaml, "maxPayloadSize"), "must be positive"));
}

TEST(webhook_spec_rules, webhook_max_payload_size_has_an_upper_limit) {
  auto yaml = event_source_yaml("  webhook:\n    a:\n      port: \"1\"\n      endpoint: /a\n"
                     "      method: POST\n      maxPayloadSize: 1099511627776\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.webhook.a.maxPayloadSize",
                             position_of(yaml, "maxPayloadSize"),
                             "is over ganglion's limit of 67108864 bytes"));
}

TEST(webhook_spec_rules, webhook_tls_needs_both_certificate_and_key) {
  auto yaml = event_source_yaml("  webhook:\n    a:\n      port: \"443\"\n      endpoint: /a\n"
                     "      method: POST\n      serverCertSecret: {name: tls, key: crt}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.webhook.a.serverCertSecret",
                             position_of(yaml, "serverCertSecret"),
                             "needs both serverCertSecret and serverKeySecret"));
}

TEST(webhook_spec_rules, two_webhook_events_cannot_share_port_and_endpoint) {
  auto yaml = event_source_yaml("  webhook:\n    a: {port: \"12000\", endpoint: /x, method: POST}\n"
                     "    b: {port: \"012000\", endpoint: /x, method: GET}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.webhook.b.endpoint",
                             position_of(yaml, "endpoint", 2),
                             "endpoint /x on port 12000 is also used by event \"a\""));
}

namespace {

/// Loading with every kind, the webhook's step as `run --listen` makes it.
load_result load_on_one_port(const std::string& yaml) {
  auto options = with_kinds();
  options.kinds.sources["webhook"] = ganglion::http::webhook_spec_step(true);
  return load(yaml, options);
}

} // namespace

TEST(webhook_spec_rules, on_one_port_an_endpoint_is_served_by_one_event_whatever_its_port) {
  auto yaml = event_source_yaml("  webhook:\n    a: {port: \"12000\", endpoint: /x, method: POST}\n"
                                "    b: {port: \"13000\", endpoint: /x, method: GET}\n"
                                "    c: {port: \"13000\", endpoint: /y, method: GET}\n");
  EXPECT_TRUE(clean(load(yaml)));
  auto r = load_on_one_port(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.b.endpoint", position_of(yaml, "endpoint", 2),
                             "endpoint /x on the --listen port is also used by event \"a\""))
    << dump(r);
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
}

TEST(webhook_spec_rules, on_one_port_health_and_ready_are_ganglions_and_tls_is_not_used) {
  auto yaml = event_source_yaml("  webhook:\n    a: {port: \"12000\", endpoint: /ready, method: POST}\n"
                                "    b:\n      port: \"443\"\n      endpoint: /b\n      method: POST\n"
                                "      serverCertSecret: {name: tls, key: crt}\n"
                                "      serverKeySecret: {name: tls, key: key}\n");
  auto r = load_on_one_port(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.a.endpoint", position_of(yaml, "endpoint"),
                             "endpoint /ready is ganglion's own on the --listen port"))
    << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.webhook.b.serverCertSecret",
                             position_of(yaml, "serverCertSecret"),
                             "not used with --listen: every webhook is served in plain HTTP",
                             severity::warning))
    << dump(r);
  EXPECT_TRUE(has_errors(r.diagnostics));
  EXPECT_FALSE(has_errors(load_on_one_port(event_source_yaml(
                            "  webhook:\n    b:\n      port: \"443\"\n      endpoint: /b\n"
                            "      method: POST\n      serverCertSecret: {name: tls, key: crt}\n"
                            "      serverKeySecret: {name: tls, key: key}\n"))
                            .diagnostics));
}
