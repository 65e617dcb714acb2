// YAML → the storageGrid kind's model (spec.storageGrid.<event>): every Argo field lands in its
// struct field.

#include <gtest/gtest.h>

#include "ganglion/storagegrid/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace storagegrid = ganglion::storagegrid;
using namespace ganglion::dsl::testing;

TEST(storagegrid_spec_mapping, storage_grid_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  storageGrid:
    example:
      webhook: {endpoint: /example, port: "8080", method: POST, url: "http://hooks.example"}
      events: ["s3:ObjectCreated:*", "s3:ObjectRemoved:Delete"]
      filter: {prefix: hello-, suffix: .txt}
      topicArn: "urn:sgws:sns:::topic"
      bucket: my-bucket
      apiURL: https://grid.example/api/v3
      authToken: {name: grid, key: token}
      metadata: {team: storage}
      tls: {caCertSecret: {name: grid, key: ca}}
    plain:
      webhook: {endpoint: /plain, port: "8081", url: "http://hooks.example"}
      events: []
      topicArn: t
      bucket: b
      apiURL: https://grid.example
      authToken: {name: grid, key: token}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = event_spec<storagegrid::event_spec>(es, "storageGrid", "example");
  EXPECT_EQ(s.webhook.endpoint, "/example");
  EXPECT_EQ(s.webhook.port, "8080");
  EXPECT_EQ(s.webhook.url, "http://hooks.example");
  ASSERT_TRUE(s.events);
  EXPECT_EQ(*s.events, (std::vector<std::string>{"s3:ObjectCreated:*", "s3:ObjectRemoved:Delete"}));
  ASSERT_TRUE(s.object_filter);
  EXPECT_EQ(s.object_filter->prefix, "hello-");
  EXPECT_EQ(s.object_filter->suffix, ".txt");
  EXPECT_EQ(s.topic_arn, "urn:sgws:sns:::topic");
  EXPECT_EQ(s.bucket, "my-bucket");
  EXPECT_EQ(s.api_url, "https://grid.example/api/v3");
  ASSERT_TRUE(s.auth_token);
  EXPECT_EQ(s.auth_token->name, "grid");
  EXPECT_EQ(s.auth_token->key, "token");
  EXPECT_EQ(s.metadata.at("team"), "storage");
  ASSERT_TRUE(s.tls);
  ASSERT_TRUE(s.tls->ca_cert_secret);
  EXPECT_EQ(s.tls->ca_cert_secret->key, "ca");

  const auto& p = event_spec<storagegrid::event_spec>(es, "storageGrid", "plain");
  ASSERT_TRUE(p.events); // an empty list is a list (Argo checks only for nil)
  EXPECT_TRUE(p.events->empty());
  EXPECT_FALSE(p.object_filter);
  EXPECT_FALSE(p.tls);
  EXPECT_TRUE(p.metadata.empty());
}
