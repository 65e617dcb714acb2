// Rules of the github kind: Argo's github validate.go (and its WebhookContext's) plus ganglion's
// stricter checks. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {
const std::string hook = "      webhook: {endpoint: /p, port: \"12000\", method: POST}\n";
} // namespace

TEST(github_spec_rules, repositories_or_organizations_one_of_them) {
  auto yaml = event_source_yaml("  github:\n    none:\n" + hook
                                + "    both:\n      organizations: [o]\n"
                                  "      repositories: [{owner: o, names: [r]}]\n"
                                  "      webhook: {endpoint: /q, port: \"12000\", method: POST}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.github.none", position_of(yaml, "none:"),
                             "either repositories or organizations is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.both", position_of(yaml, "both:"),
                             "only one of repositories and organizations is allowed"));
}

TEST(github_spec_rules, creating_hooks_needs_events) {
  auto yaml = event_source_yaml(
    "  github:\n    g:\n      organizations: [o]\n      apiToken: {name: t, key: k}\n"
    "      webhook: {endpoint: /p, port: \"12000\", method: POST, url: \"http://x\"}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.github.g.events", position_of(yaml, "g:"),
                             "events must be defined to create a github webhook"));
  auto without_url = event_source_yaml("  github:\n    g:\n      organizations: [o]\n"
                                       "      apiToken: {name: t, key: k}\n"
                                       + hook);
  EXPECT_TRUE(clean(load(without_url)));
}

TEST(github_spec_rules, content_type_and_enterprise_urls) {
  auto yaml = event_source_yaml("  github:\n    g:\n      organizations: [o]\n" + hook
                                + "      contentType: xml\n"
                                  "      githubBaseURL: https://ghe/api/v3/\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.contentType", position_of(yaml, "contentType"),
                             "content type must be \"json\" or \"form\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.githubUploadURL", position_of(yaml, "g:"),
                             "githubUploadURL is required when githubBaseURL is set"));
  auto upload = event_source_yaml("  github:\n    g:\n      organizations: [o]\n" + hook
                                  + "      githubUploadURL: https://ghe/api/uploads/\n");
  EXPECT_TRUE(has_diagnostic(load(upload), "spec.github.g.githubBaseURL", position_of(upload, "g:"),
                             "githubBaseURL is required when githubUploadURL is set"));
  auto scheme = event_source_yaml("  github:\n    g:\n      organizations: [o]\n" + hook
                                  + "      githubBaseURL: ghe/api/v3/\n"
                                    "      githubUploadURL: ghe/api/uploads/\n");
  EXPECT_TRUE(has_diagnostic(load(scheme), "spec.github.g.githubBaseURL",
                             position_of(scheme, "githubBaseURL"), "must be an http or https URL"));
}

TEST(github_spec_rules, repositories_secrets_and_the_app) {
  auto yaml =
    event_source_yaml("  github:\n    g:\n      repositories: [{owner: o, names: []}]\n" + hook
                      + "      webhookSecret: {name: s}\n"
                        "      githubApp: {appID: 0}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.repositories[0].names", position_of(yaml, "names"),
                             "names must list at least one"));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.webhookSecret.key",
                             position_of(yaml, "webhookSecret"), "key is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.githubApp.privateKey",
                             position_of(yaml, "githubApp"), "privateKey is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.githubApp.appID", position_of(yaml, "appID"),
                             "appID is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.github.g.githubApp.installationID",
                             position_of(yaml, "githubApp"), "installationID is required"));
}

TEST(github_spec_rules, the_webhook_context_is_required) {
  auto yaml =
    event_source_yaml("  github:\n    g:\n      repositories: [{owner: o, names: [r]}]\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.github.g.webhook.endpoint", position_of(yaml, "g:"),
                             "endpoint is required"));
}

TEST(github_spec_rules, a_github_app_needs_an_https_api) {
  auto yaml = event_source_yaml(
    "  github:\n    g:\n      organizations: [o]\n      events: [push]\n"
    "      webhook: {endpoint: /p, port: \"12000\", method: POST, url: \"http://x\"}\n"
    "      githubApp: {privateKey: {name: a, key: k}, appID: 1, installationID: 2}\n"
    "      githubBaseURL: http://ghe/api/v3/\n      githubUploadURL: http://ghe/api/uploads/\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.github.g.githubBaseURL",
                             position_of(yaml, "githubBaseURL"),
                             "must be https:// to get a GitHub App's installation token"));
}
