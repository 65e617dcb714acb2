// Rules of the pubSub kind: Argo's gcppubsub validate.go plus ganglion's stricter checks. Every
// diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(gcp_spec_rules, pubsub_source_rules) {
  auto yaml = event_source_yaml("  pubSub:\n    n:\n      topicProjectID: tp\n"
                                "    m:\n      projectID: p/x\n      topic: orders\n"
                                "      credentialSecret: {name: gcp}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.pubSub.n.topicProjectID", position_of(yaml, "topicProjectID"),
                             "you can't specify topicProjectID if you don't specify topic"));
  EXPECT_TRUE(has_diagnostic(r, "spec.pubSub.n", n, "must specify topic or subscriptionID"));
  EXPECT_TRUE(has_diagnostic(r, "spec.pubSub.n.projectID", n,
                             "projectID is required: ganglion does not ask the GCP metadata "
                             "server for it"));
  EXPECT_TRUE(has_diagnostic(r, "spec.pubSub.m.projectID", position_of(yaml, "projectID"),
                             "projectID \"p/x\" may hold only letters, digits and"));
  EXPECT_TRUE(has_diagnostic(r, "spec.pubSub.m.credentialSecret.key",
                             position_of(yaml, "credentialSecret"), "key is required"));
  for (const auto& d : r.diagnostics)
    EXPECT_NE(d.path, "spec.pubSub.m") << d.to_string();
}

TEST(gcp_spec_rules, the_corpus_shapes_are_clean) {
  EXPECT_TRUE(clean(load(event_source_yaml(
    "  pubSub:\n    example:\n      jsonBody: true\n      projectID: argo-events-XXXXX\n"
    "      topic: test\n      subscriptionID: test-sub\n"
    "      credentialSecret: {name: my-secret, key: secret-key}\n"))));
}
