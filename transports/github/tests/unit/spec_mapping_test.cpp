// YAML → the github kind's model (spec.github.<event>): every Argo field lands in its struct
// field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/github/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace github = ganglion::github;
using namespace ganglion::dsl::testing;

TEST(github_spec_mapping, github_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  github:
    repos:
      repositories:
        - owner: argoproj
          names: [argo-events, argo-workflows]
      webhook: {endpoint: /push, port: "12000", method: POST, url: "http://hooks.example"}
      events: ["*"]
      apiToken: {name: github-access, key: token}
      webhookSecret: {name: github-access, key: secret}
      insecure: true
      active: true
      contentType: json
      githubBaseURL: https://ghe.example/api/v3/
      githubUploadURL: https://ghe.example/api/uploads/
      deleteHookOnFinish: true
      metadata: {team: a}
    orgs:
      organizations: [argoproj]
      webhook: {endpoint: /org, port: "12000", method: POST}
      githubApp: {privateKey: {name: app, key: pem}, appID: 12, installationID: 34}
    old:
      owner: argoproj
      repository: argo
      webhook: {endpoint: /old, port: "12000", method: POST}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<github::event_spec>(es, "github", "repos");
  ASSERT_EQ(s.repositories.size(), 1u);
  EXPECT_EQ(s.repositories[0].owner, "argoproj");
  EXPECT_EQ(s.repositories[0].names, (std::vector<std::string>{"argo-events", "argo-workflows"}));
  EXPECT_EQ(s.webhook.endpoint, "/push");
  EXPECT_EQ(s.webhook.port, "12000");
  EXPECT_EQ(s.webhook.url, "http://hooks.example");
  EXPECT_EQ(s.events, (std::vector<std::string>{"*"}));
  EXPECT_EQ(s.api_token->name, "github-access");
  EXPECT_EQ(s.webhook_secret->key, "secret");
  EXPECT_TRUE(s.insecure);
  EXPECT_TRUE(s.active);
  EXPECT_EQ(s.content_type, "json");
  EXPECT_EQ(s.github_base_url, "https://ghe.example/api/v3/");
  EXPECT_EQ(s.github_upload_url, "https://ghe.example/api/uploads/");
  EXPECT_TRUE(s.delete_hook_on_finish);
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_FALSE(s.has_organizations);
  EXPECT_TRUE(s.need_to_create_hooks());

  const auto& o = event_spec<github::event_spec>(es, "github", "orgs");
  EXPECT_EQ(o.organizations, (std::vector<std::string>{"argoproj"}));
  EXPECT_TRUE(o.has_organizations);
  ASSERT_TRUE(o.github_app);
  EXPECT_EQ(o.github_app->private_key->name, "app");
  EXPECT_EQ(o.github_app->app_id, 12);
  EXPECT_EQ(o.github_app->installation_id, 34);
  EXPECT_TRUE(o.has_app_creds());
  EXPECT_FALSE(o.need_to_create_hooks()); // no webhook.url
  EXPECT_FALSE(o.insecure);
  EXPECT_FALSE(o.active);
  EXPECT_FALSE(o.delete_hook_on_finish);
  EXPECT_TRUE(o.owned().empty());

  const auto& d = event_spec<github::event_spec>(es, "github", "old");
  ASSERT_EQ(d.owned().size(), 1u);
  EXPECT_EQ(d.owned()[0].owner, "argoproj");
  EXPECT_EQ(d.owned()[0].names, (std::vector<std::string>{"argo"}));
  EXPECT_FALSE(d.need_to_create_hooks());
}
