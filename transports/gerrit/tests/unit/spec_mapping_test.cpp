// YAML → the gerrit kind's model (spec.gerrit.<event>): every Argo field lands in its struct
// field.

#include <gtest/gtest.h>

#include "ganglion/gerrit/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace gerrit = ganglion::gerrit;
using namespace ganglion::dsl::testing;

TEST(gerrit_spec_mapping, gerrit_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  gerrit:
    example:
      projects: ["argo-webhook", "argo/webhook"]
      hookName: argo-webhook-example
      webhook: {endpoint: /push, port: "13000", method: POST, url: "http://gerrit.example"}
      events: [patchset-created, ref-updated]
      auth:
        username: {name: gerrit-access, key: username}
        password: {name: gerrit-access, key: password}
      sslVerify: true
      gerritBaseURL: http://10.0.71.100:58080/
      deleteHookOnFinish: true
      maxTries: 4
      metadata: {team: review}
    plain:
      projects: [p]
      events: []
      gerritBaseURL: https://review.example
      auth:
        username: {name: g, key: u}
        password: {name: g, key: p}
      webhook: {endpoint: /plain, port: "13001"}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& g = event_spec<gerrit::event_spec>(es, "gerrit", "example");
  EXPECT_EQ(g.projects, (std::vector<std::string>{"argo-webhook", "argo/webhook"}));
  EXPECT_EQ(g.hook_name, "argo-webhook-example");
  EXPECT_EQ(g.webhook.endpoint, "/push");
  EXPECT_EQ(g.webhook.port, "13000");
  EXPECT_EQ(g.webhook.url, "http://gerrit.example");
  EXPECT_EQ(g.events, (std::vector<std::string>{"patchset-created", "ref-updated"}));
  ASSERT_TRUE(g.auth);
  EXPECT_EQ(g.auth->username->name, "gerrit-access");
  EXPECT_EQ(g.auth->password->key, "password");
  EXPECT_TRUE(g.ssl_verify);
  EXPECT_EQ(g.gerrit_base_url, "http://10.0.71.100:58080/");
  EXPECT_TRUE(g.delete_hook_on_finish);
  EXPECT_EQ(g.max_tries, 4);
  EXPECT_EQ(g.metadata.at("team"), "review");
  EXPECT_TRUE(g.need_to_create_hooks());

  const auto& p = event_spec<gerrit::event_spec>(es, "gerrit", "plain");
  EXPECT_TRUE(p.events.empty());
  EXPECT_TRUE(p.hook_name.empty());
  EXPECT_FALSE(p.ssl_verify);
  EXPECT_FALSE(p.delete_hook_on_finish);
  EXPECT_EQ(p.max_tries, 0);
  EXPECT_FALSE(p.need_to_create_hooks()); // no webhook.url
}
