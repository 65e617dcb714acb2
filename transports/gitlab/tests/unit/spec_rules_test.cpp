// Rules of the gitlab kind: Argo's gitlab validate.go (and its WebhookContext's) plus
// ganglion's. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(gitlab_spec_rules, events_base_url_and_access_token_are_required) {
  auto yaml = event_source_yaml("  gitlab:\n    g:\n      projects: [\"1\"]\n"
                                "      webhook: {endpoint: /p, port: \"12000\", method: POST}\n");
  auto r = load(yaml);
  auto g = position_of(yaml, "g:");
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.events", g, "events can't be empty"));
  EXPECT_TRUE(
    has_diagnostic(r, "spec.gitlab.g.gitlabBaseURL", g, "gitlab base url can't be empty"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.accessToken", g, "access token can't be nil"));
}

TEST(gitlab_spec_rules, events_name_hook_flags_and_the_url_is_http) {
  auto yaml = event_source_yaml(
    "  gitlab:\n    g:\n      projects: [\"1\"]\n"
    "      webhook: {endpoint: /p, port: \"12000\", method: POST}\n"
    "      events: [PushEvents, Token, Pushes]\n      accessToken: {name: a, key: t}\n"
    "      gitlabBaseURL: gitlab.com\n      secretToken: {name: s}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.events[1]", position_of(yaml, "Token"),
                             "unknown event Token"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.events[2]", position_of(yaml, "Pushes"),
                             "unknown event Pushes (one of ConfidentialIssuesEvents"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.gitlabBaseURL", position_of(yaml, "gitlabBaseURL"),
                             "must be an http or https URL"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gitlab.g.secretToken.key", position_of(yaml, "secretToken"),
                             "key is required"));
}

TEST(gitlab_spec_rules, the_webhook_context_is_required) {
  auto yaml = event_source_yaml("  gitlab:\n    g:\n      projects: [\"1\"]\n      events: []\n"
                                "      accessToken: {name: a, key: t}\n"
                                "      gitlabBaseURL: https://gitlab.com\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.gitlab.g.webhook.endpoint", position_of(yaml, "g:"),
                             "endpoint is required"));
}
