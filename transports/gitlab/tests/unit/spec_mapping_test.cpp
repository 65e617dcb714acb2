// YAML → the gitlab kind's model (spec.gitlab.<event>): every Argo field lands in its struct
// field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/gitlab/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace gitlab = ganglion::gitlab;
using namespace ganglion::dsl::testing;

TEST(gitlab_spec_mapping, gitlab_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  gitlab:
    example:
      projects: ["whynowy/test", "3"]
      groups: [my-group]
      webhook: {endpoint: /push, port: "12000", method: POST, url: "http://hooks.example"}
      events: [PushEvents, EmojiEvents]
      accessToken: {name: gitlab-access, key: token}
      secretToken: {name: gitlab-secret, key: token}
      enableSSLVerification: true
      gitlabBaseURL: https://gitlab.com
      deleteHookOnFinish: true
      metadata: {team: a}
    old:
      projectID: "7"
      webhook: {endpoint: /old, port: "12000", method: POST}
      events: []
      accessToken: {name: gitlab-access, key: token}
      gitlabBaseURL: https://gitlab.com
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<gitlab::event_spec>(es, "gitlab", "example");
  EXPECT_EQ(s.projects, (std::vector<std::string>{"whynowy/test", "3"}));
  EXPECT_EQ(s.project_list(), s.projects);
  EXPECT_EQ(s.groups, (std::vector<std::string>{"my-group"}));
  EXPECT_EQ(s.webhook.endpoint, "/push");
  EXPECT_EQ(s.webhook.url, "http://hooks.example");
  EXPECT_EQ(s.events, (std::vector<std::string>{"PushEvents", "EmojiEvents"}));
  EXPECT_TRUE(s.has_events);
  EXPECT_EQ(s.access_token->name, "gitlab-access");
  EXPECT_EQ(s.secret_token->name, "gitlab-secret");
  EXPECT_TRUE(s.enable_ssl_verification);
  EXPECT_EQ(s.gitlab_base_url, "https://gitlab.com");
  EXPECT_TRUE(s.delete_hook_on_finish);
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_TRUE(s.need_to_create_hooks());
  const auto& o = event_spec<gitlab::event_spec>(es, "gitlab", "old");
  EXPECT_EQ(o.project_list(), (std::vector<std::string>{"7"}));
  EXPECT_TRUE(o.has_events);
  EXPECT_TRUE(o.events.empty());
  EXPECT_FALSE(o.enable_ssl_verification);
  EXPECT_FALSE(o.delete_hook_on_finish);
  EXPECT_FALSE(o.secret_token);
  EXPECT_FALSE(o.need_to_create_hooks());
}
