// YAML → the slack kinds' model (template.slack): every Argo field lands in its struct field.

#include <gtest/gtest.h>

#include "ganglion/slack/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace slack = ganglion::slack;
using namespace ganglion::dsl::testing;

TEST(slack_spec_mapping, slack_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: post
        slack:
          slackToken: {name: slack-secret, key: token}
          channel: "#general"
          message: hello
          attachments: '[{"text":"a"}]'
          blocks: '[{"type":"divider"}]'
          thread: {messageAggregationKey: build-1, broadcastMessageToChannel: true}
          sender: {username: ganglion, icon: ":robot_face:"}
          parameters:
            - src: {dependencyName: d, dataKey: body.text}
              dest: message
)");
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = action_spec<slack::trigger_spec>(t);
  EXPECT_EQ(s.slack_token->name, "slack-secret");
  EXPECT_EQ(s.slack_token->key, "token");
  EXPECT_EQ(s.channel, "#general");
  EXPECT_EQ(s.message, "hello");
  EXPECT_EQ(s.attachments, R"([{"text":"a"}])");
  EXPECT_EQ(s.blocks, R"([{"type":"divider"}])");
  EXPECT_EQ(s.thread.message_aggregation_key, "build-1");
  EXPECT_TRUE(s.thread.broadcast_message_to_channel);
  EXPECT_EQ(s.sender.username, "ganglion");
  EXPECT_EQ(s.sender.icon, ":robot_face:");
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "message");
}

TEST(slack_spec_mapping, slack_trigger_defaults) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: post
        slack: {slackToken: {name: s, key: t}, channel: c, message: m}
)");
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& s = action_spec<slack::trigger_spec>(only_template(r));
  EXPECT_EQ(s.attachments, "");
  EXPECT_EQ(s.blocks, "");
  EXPECT_EQ(s.thread.message_aggregation_key, "");
  EXPECT_FALSE(s.thread.broadcast_message_to_channel);
  EXPECT_EQ(s.sender.username, "");
  EXPECT_EQ(s.sender.icon, "");
}

TEST(slack_spec_mapping, slack_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  slack:
    example:
      webhook: {endpoint: /slack, port: "12000", method: POST}
      token: {name: slack-secret, key: tokenkey}
      signingSecret: {name: slack-secret, key: signingSecret}
      metadata: {team: a}
)");
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& es = only<event_source>(r);
  const auto& s = event_spec<slack::event_spec>(es, "slack", "example");
  EXPECT_EQ(s.token->key, "tokenkey");
  EXPECT_EQ(s.signing_secret->key, "signingSecret");
  EXPECT_EQ(s.webhook.endpoint, "/slack");
  EXPECT_EQ(s.webhook.port, "12000");
  EXPECT_EQ(s.webhook.method, "POST");
  EXPECT_EQ(s.metadata.at("team"), "a");
}
