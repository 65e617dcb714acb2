// Rules of the stripe kind: Argo's stripe validate.go plus ganglion's. Every diagnostic is
// checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(stripe_spec_rules, create_webhook_needs_the_api_key_and_the_url) {
  auto yaml = event_source_yaml("  stripe:\n"
                                "    s:\n"
                                "      webhook: {endpoint: /s, port: \"12000\"}\n"
                                "      createWebhook: true\n");
  auto r = load(yaml);
  const auto s = position_of(yaml, "s:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.stripe.s.apiKey", s,
                             "api key K8s secret selector not provided"));
  EXPECT_TRUE(has_diagnostic(r, "spec.stripe.s.webhook.url", position_of(yaml, "webhook:"),
                             "webhook.url is required with createWebhook"));
}

TEST(stripe_spec_rules, the_webhook_context_is_required) {
  auto yaml = event_source_yaml("  stripe:\n"
                                "    s:\n"
                                "      createWebhook: false\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_errors(r.diagnostics)) << dump(r);
  bool at_webhook = false;
  for (const auto& d : r.diagnostics)
    at_webhook |= d.path.rfind("spec.stripe.s.webhook", 0) == 0;
  EXPECT_TRUE(at_webhook) << dump(r);
}

TEST(stripe_spec_rules, an_empty_filter_and_an_unused_key_are_warnings) {
  auto yaml = event_source_yaml("  stripe:\n"
                                "    s:\n"
                                "      webhook: {endpoint: /s, port: \"12000\"}\n"
                                "      apiKey: {name: stripe, key: k}\n"
                                "      eventFilter: []\n");
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.stripe.s.eventFilter", position_of(yaml, "eventFilter:"),
                             "an empty list passes no event", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.stripe.s.apiKey", position_of(yaml, "apiKey:"),
                             "used only with createWebhook", severity::warning));
}

TEST(stripe_spec_rules, argos_corpus_example_is_valid) {
  auto r = load(event_source_yaml("  stripe:\n"
                                  "    example:\n"
                                  "      webhook:\n"
                                  "        port: \"12000\"\n"
                                  "        endpoint: /example\n"
                                  "        method: POST\n"
                                  "        url: http://myfakeurl.fake\n"
                                  "      createWebhook: true\n"
                                  "      apiKey:\n"
                                  "        name: secret_containing_api_key\n"
                                  "        key: key_within_secret_that_holds_api_key\n"));
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
}
