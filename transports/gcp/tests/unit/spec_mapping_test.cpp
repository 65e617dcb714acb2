// YAML → the pubSub kind's model (spec.pubSub.<event>): every Argo field lands in its struct
// field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/gcp/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace gcp = ganglion::gcp;
using namespace ganglion::dsl::testing;

TEST(gcp_spec_mapping, pubsub_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  pubSub:
    orders:
      projectID: my-project
      topicProjectID: topic-project
      topic: orders
      subscriptionID: orders-sub
      credentialSecret: {name: gcp, key: key.json}
      deleteSubscriptionOnFinish: true
      jsonBody: true
      metadata: {team: a}
      filter: {expression: "true"}
    plain:
      projectID: my-project
      subscriptionID: existing
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<gcp::event_spec>(es, "pubSub", "orders");
  EXPECT_EQ(s.project_id, "my-project");
  EXPECT_EQ(s.topic_project_id, "topic-project");
  EXPECT_EQ(s.topic_project(), "topic-project");
  EXPECT_EQ(s.topic, "orders");
  EXPECT_EQ(s.subscription_id, "orders-sub");
  EXPECT_EQ(s.credential_secret->name, "gcp");
  EXPECT_EQ(s.credential_secret->key, "key.json");
  EXPECT_TRUE(s.delete_subscription_on_finish);
  EXPECT_TRUE(s.json_body);
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_EQ(es.spec.find("pubSub", "orders")->filter->expression, "true");
  const auto& p = event_spec<gcp::event_spec>(es, "pubSub", "plain");
  EXPECT_FALSE(p.credential_secret);
  EXPECT_TRUE(p.topic.empty());
  EXPECT_EQ(p.topic_project(), "my-project");
  EXPECT_FALSE(p.delete_subscription_on_finish);
  EXPECT_FALSE(p.json_body);
  EXPECT_TRUE(p.metadata.empty());
}
