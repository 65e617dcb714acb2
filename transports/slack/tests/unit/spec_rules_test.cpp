// Rules of the slack kinds: Argo's validateSlackTrigger plus ganglion's checks of what would
// fail every post. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(slack_spec_rules, slack_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        slack:\n          channel: \"#\"\n"
    "          attachments: '{\"text\":1}'\n          blocks: 'not json'\n"
    "    - template:\n        name: b\n        slack:\n          slackToken: {name: s}\n"
    "    - template:\n        name: c\n"
    "        slack: {slackToken: {name: s, key: k}, channel: c, blocks: '[]'}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.slack";
  const std::string b = "spec.triggers[1].template.slack";
  const auto slack = position_of(yaml, "slack:");
  EXPECT_TRUE(has_diagnostic(r, a + ".slackToken", slack, "slackToken is required"));
  EXPECT_TRUE(
    has_diagnostic(r, a + ".channel", position_of(yaml, "channel"), "channel is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".attachments", position_of(yaml, "attachments"),
                             "attachments must be a JSON array"));
  EXPECT_TRUE(
    has_diagnostic(r, a + ".blocks", position_of(yaml, "blocks"), "blocks must be a JSON array"));
  EXPECT_TRUE(
    has_diagnostic(r, b + ".slackToken.key", position_of(yaml, "slackToken"), "key is required"));
  EXPECT_TRUE(
    has_diagnostic(r, b + ".channel", position_of(yaml, "slack:", 2), "channel is required"));
  EXPECT_TRUE(has_diagnostic(r, b + ".message", position_of(yaml, "slack:", 2), "nothing to post"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[2]"), std::string::npos) << d.to_string();
}

TEST(slack_spec_rules, a_parameterized_slack_trigger_is_checked_per_firing) {
  auto yaml = sensor_yaml(
    "    - parameters:\n        - src: {dependencyName: d, dataKey: body.channel}\n"
    "          dest: slack.channel\n"
    "      template:\n        name: a\n        slack: {slackToken: {name: s, key: k}}\n"
    "    - template:\n        name: b\n        slack:\n"
    "          slackToken: {name: s, key: k}\n          parameters:\n"
    "            - src: {dependencyName: nope, dataKey: x}\n              dest: message\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[1].template.slack.parameters[0].src.dependencyName",
                             position_of(yaml, "dependencyName: nope"), "nope"))
    << dump(r);
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[0]"), std::string::npos) << d.to_string();
}

TEST(slack_spec_rules, slack_source_rules) {
  auto yaml = event_source_yaml("  slack:\n    s:\n      webhook: {endpoint: /s, port: \"12000\", "
                                "method: POST}\n");
  auto r = load(yaml);
  const auto s = position_of(yaml, "s:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.slack.s.token", s, "token not provided"));
  EXPECT_TRUE(has_diagnostic(r, "spec.slack.s.signingSecret", s, "signingSecret not provided"));
}
