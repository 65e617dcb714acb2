// Rules of the gerrit kind: Argo's gerrit validate.go plus ganglion's. Every diagnostic is
// checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string auth = "        auth:\n"
                         "          username: {name: g, key: u}\n"
                         "          password: {name: g, key: p}\n";

} // namespace

TEST(gerrit_spec_rules, projects_events_base_url_and_auth_are_required) {
  auto yaml = event_source_yaml("  gerrit:\n"
                                "    g:\n"
                                "      webhook: {endpoint: /g, port: \"12000\"}\n");
  auto r = load(yaml);
  const auto g = position_of(yaml, "g:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.projects", g, "projects cannot be empty"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.events", g, "events can't be empty"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.gerritBaseURL", g, "gerritBaseURL is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.auth", g, "username and password can't be empty"));
}

TEST(gerrit_spec_rules, an_empty_events_list_is_argos_all_events) {
  auto r = load(event_source_yaml("  gerrit:\n"
                                  "    g:\n"
                                  "      projects: [p]\n"
                                  "      events: []\n"
                                  "      gerritBaseURL: https://review.example\n"
                                  "      webhook: {endpoint: /g, port: \"12000\"}\n"
                                  + auth.substr(2)));
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
}

TEST(gerrit_spec_rules, the_base_url_must_be_http_and_the_credentials_complete) {
  auto yaml = event_source_yaml("  gerrit:\n"
                                "    g:\n"
                                "      projects: [p]\n"
                                "      events: [ref-updated]\n"
                                "      gerritBaseURL: review.example\n"
                                "      webhook: {endpoint: /g, port: \"12000\"}\n"
                                "      auth:\n"
                                "        username: {name: g, key: u}\n"
                                "      maxTries: -1\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.gerritBaseURL", position_of(yaml, "gerritBaseURL:"),
                             "gerritBaseURL must be an http:// or https:// URL"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.auth.password", position_of(yaml, "auth:"),
                             "password is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.maxTries", position_of(yaml, "maxTries:"),
                             "maxTries must not be negative"));
}

TEST(gerrit_spec_rules, creating_the_hook_needs_its_name_and_the_webhook_context_is_checked) {
  auto yaml = event_source_yaml("  gerrit:\n"
                                "    g:\n"
                                "      projects: [p]\n"
                                "      events: [ref-updated]\n"
                                "      gerritBaseURL: https://review.example\n"
                                "      webhook: {port: \"12000\", url: \"https://me.example\"}\n"
                                + auth.substr(2));
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.hookName", position_of(yaml, "g:\n"),
                             "hookName is required to create the Gerrit hook"));
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.webhook.endpoint", position_of(yaml, "webhook:"),
                             "endpoint is required"));
}

TEST(gerrit_spec_rules, delete_hook_on_finish_without_a_hook_is_ignored_with_a_warning) {
  auto yaml = event_source_yaml("  gerrit:\n"
                                "    g:\n"
                                "      projects: [p]\n"
                                "      events: [ref-updated]\n"
                                "      gerritBaseURL: https://review.example\n"
                                "      webhook: {endpoint: /g, port: \"12000\"}\n"
                                "      deleteHookOnFinish: true\n"
                                + auth.substr(2));
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.gerrit.g.deleteHookOnFinish",
                             position_of(yaml, "deleteHookOnFinish:"), "ignored: no hook",
                             severity::warning));
}
