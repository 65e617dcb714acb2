// Rules of the bitbucket kinds: Argo's bitbucket validate.go plus ganglion's. Every diagnostic
// is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(bitbucket_spec_rules, a_repository_and_auth_are_required) {
  auto yaml = event_source_yaml("  bitbucket:\n"
                                "    b:\n"
                                "      webhook: {endpoint: /b, port: \"12000\"}\n"
                                "      owner: argo\n");
  auto r = load(yaml);
  const auto b = position_of(yaml, "b:\n");
  EXPECT_TRUE(
    has_diagnostic(r, "spec.bitbucket.b.repositories", b, "at least one repository is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.auth", b, "auth is required"));
}

TEST(bitbucket_spec_rules, creating_hooks_needs_events) {
  auto yaml =
    event_source_yaml("  bitbucket:\n"
                      "    b:\n"
                      "      repositories: [{owner: argo, repositorySlug: events}]\n"
                      "      webhook: {endpoint: /b, port: \"12000\", url: \"https://x\"}\n"
                      "      auth: {oauthToken: {name: s, key: t}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.events", position_of(yaml, "b:\n"),
                             "events must be defined to create a bitbucket webhooks"));
}

TEST(bitbucket_spec_rules, repositories_need_owner_and_slug_and_basic_auth_both_secrets) {
  auto yaml = event_source_yaml("  bitbucket:\n"
                                "    b:\n"
                                "      repositories:\n"
                                "        - {owner: argo}\n"
                                "      webhook: {endpoint: /b, port: \"12000\"}\n"
                                "      auth:\n"
                                "        basic:\n"
                                "          username: {name: s, key: u}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.repositories[0].repositorySlug",
                             position_of(yaml, "{owner: argo}"), "repositorySlug is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.auth.basic.password", position_of(yaml, "basic:"),
                             "password is required"));
}

TEST(bitbucket_spec_rules, deprecated_fields_that_are_not_read_warn) {
  auto yaml = event_source_yaml("  bitbucket:\n"
                                "    b:\n"
                                "      repositories: [{owner: argo, repositorySlug: events}]\n"
                                "      projectKey: ARGO\n"
                                "      owner: other\n"
                                "      webhook: {endpoint: /b, port: \"12000\"}\n"
                                "      auth: {oauthToken: {name: s, key: t}}\n");
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.projectKey", position_of(yaml, "projectKey:"),
                             "ignored: deprecated", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucket.b.owner", position_of(yaml, "owner: other"),
                             "ignored: repositories is set", severity::warning));
}

TEST(bitbucket_spec_rules, server_one_event_per_change_and_skip_on_open_pr_are_run) {
  auto yaml = event_source_yaml("  bitbucketserver:\n"
                                "    s:\n"
                                "      bitbucketserverBaseURL: https://bitbucket.example/rest\n"
                                "      webhook: {endpoint: /s, port: \"12000\"}\n"
                                "      accessToken: {name: s, key: t}\n"
                                "      oneEventPerChange: true\n"
                                "      skipBranchRefsChangedOnOpenPR: true\n");
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
}

TEST(bitbucket_spec_rules, server_skip_on_open_pr_needs_the_access_token) {
  auto yaml = event_source_yaml("  bitbucketserver:\n"
                                "    s:\n"
                                "      bitbucketserverBaseURL: https://bitbucket.example/rest\n"
                                "      webhook: {endpoint: /s, port: \"12000\"}\n"
                                "      skipBranchRefsChangedOnOpenPR: true\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.bitbucketserver.s.skipBranchRefsChangedOnOpenPR",
                             position_of(yaml, "skipBranchRefsChangedOnOpenPR:"),
                             "skipBranchRefsChangedOnOpenPR needs accessToken"))
    << dump(r);
}
