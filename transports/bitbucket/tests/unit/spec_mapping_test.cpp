// YAML → the bitbucket kinds' models (spec.bitbucket.<event>): every Argo field lands in its
// struct field.

#include <gtest/gtest.h>

#include "ganglion/bitbucket/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace bitbucket = ganglion::bitbucket;
using namespace ganglion::dsl::testing;

TEST(bitbucket_spec_mapping, bitbucket_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  bitbucket:
    example:
      repositories:
        - {owner: argo, repositorySlug: events}
        - {owner: argo, repositorySlug: workflows}
      webhook: {endpoint: /push, port: "12000", method: POST, url: "https://me.example"}
      events: ["repo:push", "pullrequest:created"]
      auth:
        basic:
          username: {name: bitbucket-access, key: username}
          password: {name: bitbucket-access, key: password}
      deleteHookOnFinish: true
      metadata: {team: ci}
    deprecated:
      owner: argo
      repositorySlug: rollouts
      webhook: {endpoint: /old, port: "12001"}
      auth:
        oauthToken: {name: bitbucket-access, key: token}
)");
  const auto& es = only<event_source>(r);
  ASSERT_FALSE(has_errors(r.diagnostics)) << dump(r);
  const auto& b = event_spec<bitbucket::event_spec>(es, "bitbucket", "example");
  ASSERT_EQ(b.repositories.size(), 2u);
  EXPECT_EQ(b.repositories[1].owner, "argo");
  EXPECT_EQ(b.repositories[1].repository_slug, "workflows");
  EXPECT_EQ(b.webhook.endpoint, "/push");
  EXPECT_EQ(b.webhook.url, "https://me.example");
  EXPECT_EQ(b.events, (std::vector<std::string>{"repo:push", "pullrequest:created"}));
  ASSERT_TRUE(b.auth && b.auth->basic);
  EXPECT_EQ(b.auth->basic->username->key, "username");
  EXPECT_EQ(b.auth->basic->password->name, "bitbucket-access");
  EXPECT_FALSE(b.auth->oauth_token);
  EXPECT_TRUE(b.delete_hook_on_finish);
  EXPECT_EQ(b.metadata.at("team"), "ci");
  EXPECT_TRUE(b.has_basic_auth());
  EXPECT_TRUE(b.should_create_webhooks());

  const auto& d = event_spec<bitbucket::event_spec>(es, "bitbucket", "deprecated");
  EXPECT_EQ(d.owner, "argo");
  EXPECT_EQ(d.repository_slug, "rollouts");
  ASSERT_EQ(d.bitbucket_repositories().size(), 1u);
  EXPECT_EQ(d.bitbucket_repositories()[0].repository_slug, "rollouts");
  ASSERT_TRUE(d.auth && d.auth->oauth_token);
  EXPECT_EQ(d.auth->oauth_token->key, "token");
  EXPECT_TRUE(d.has_oauth_token());
  EXPECT_FALSE(d.should_create_webhooks()); // no webhook.url
}
