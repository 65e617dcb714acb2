// Rules of the storageGrid kind: Argo's storagegrid validate.go plus ganglion's. Every
// diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(storagegrid_spec_rules, argos_required_fields) {
  auto yaml = event_source_yaml("  storageGrid:\n"
                                "    s:\n"
                                "      webhook: {endpoint: /s, port: \"8080\", url: http://h}\n");
  auto r = load(yaml);
  const auto s = position_of(yaml, "s:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.topicArn", s, "topic arn must be provided"));
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.apiURL", s, "api url must be provided"));
  EXPECT_TRUE(
    has_diagnostic(r, "spec.storageGrid.s.authToken", s, "api auth token must be provided"));
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.bucket", s, "bucket name must be provided"));
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.events", s, "event types must be provided"));
}

TEST(storagegrid_spec_rules, the_webhook_context_is_required) {
  auto yaml = event_source_yaml("  storageGrid:\n"
                                "    s:\n"
                                "      topicArn: t\n"
                                "      bucket: b\n"
                                "      apiURL: http://grid\n"
                                "      authToken: {name: grid, key: token}\n"
                                "      events: [\"s3:ObjectCreated:*\"]\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_errors(r.diagnostics)) << dump(r);
  bool at_webhook = false;
  for (const auto& d : r.diagnostics)
    at_webhook |= d.path.rfind("spec.storageGrid.s.webhook", 0) == 0;
  EXPECT_TRUE(at_webhook) << dump(r);
}

TEST(storagegrid_spec_rules, tls_is_checked_as_argos_client_would) {
  auto yaml = event_source_yaml("  storageGrid:\n"
                                "    s:\n"
                                "      webhook: {endpoint: /s, port: \"8080\", url: http://h}\n"
                                "      topicArn: t\n"
                                "      bucket: b\n"
                                "      apiURL: https://grid\n"
                                "      authToken: {name: grid, key: token}\n"
                                "      events: []\n"
                                "      tls: {clientCertSecret: {name: grid, key: cert}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(
    has_diagnostic(r, "spec.storageGrid.s.tls", position_of(yaml, "tls:"), "clientKeySecret"))
    << dump(r);
}

TEST(storagegrid_spec_rules, an_empty_webhook_url_and_a_region_are_warnings) {
  auto yaml = event_source_yaml("  storageGrid:\n"
                                "    s:\n"
                                "      webhook: {endpoint: /s, port: \"8080\"}\n"
                                "      topicArn: t\n"
                                "      bucket: b\n"
                                "      region: us-east-1\n"
                                "      apiURL: https://grid\n"
                                "      authToken: {name: grid, key: token}\n"
                                "      events: []\n");
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.webhook.url", position_of(yaml, "webhook:"),
                             "gets the URI \"/s\"", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.storageGrid.s.region", position_of(yaml, "region:"),
                             "uses it nowhere", severity::warning));
}

TEST(storagegrid_spec_rules, argos_corpus_example_is_valid) {
  auto r = load(event_source_yaml("  storageGrid:\n"
                                  "    example:\n"
                                  "      webhook:\n"
                                  "        port: \"8080\"\n"
                                  "        method: POST\n"
                                  "        endpoint: \"/\"\n"
                                  "        url: event-source-url\n"
                                  "      events:\n"
                                  "        - s3:ObjectCreated:*\n"
                                  "      topicArn: topic arn\n"
                                  "      bucket: name of the bucket\n"
                                  "      apiURL: storagegrid api url\n"
                                  "      authToken:\n"
                                  "        name: name of k8s secret that holds storagegrid auth "
                                  "token\n"
                                  "        key: key within secret that holds the token value\n"));
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
}
