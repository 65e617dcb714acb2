// YAML → the stripe kind's model (spec.stripe.<event>): every Argo field lands in its struct
// field.

#include <gtest/gtest.h>

#include "ganglion/stripe/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace stripe = ganglion::stripe;
using namespace ganglion::dsl::testing;

TEST(stripe_spec_mapping, stripe_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  stripe:
    example:
      webhook: {endpoint: /example, port: "12000", method: POST, url: "http://hooks.example"}
      createWebhook: true
      apiKey: {name: stripe, key: api-key}
      eventFilter: [account.updated, application_fee.created]
      metadata: {team: billing}
    plain:
      webhook: {endpoint: /plain, port: "12001"}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = event_spec<stripe::event_spec>(es, "stripe", "example");
  EXPECT_EQ(s.webhook.endpoint, "/example");
  EXPECT_EQ(s.webhook.port, "12000");
  EXPECT_EQ(s.webhook.url, "http://hooks.example");
  EXPECT_TRUE(s.create_webhook);
  ASSERT_TRUE(s.api_key);
  EXPECT_EQ(s.api_key->name, "stripe");
  EXPECT_EQ(s.api_key->key, "api-key");
  ASSERT_TRUE(s.event_filter);
  EXPECT_EQ(*s.event_filter,
            (std::vector<std::string>{"account.updated", "application_fee.created"}));
  EXPECT_EQ(s.metadata.at("team"), "billing");

  const auto& p = event_spec<stripe::event_spec>(es, "stripe", "plain");
  EXPECT_FALSE(p.create_webhook);
  EXPECT_FALSE(p.api_key);
  EXPECT_FALSE(p.event_filter); // absent: every type passes
  EXPECT_TRUE(p.metadata.empty());
}
