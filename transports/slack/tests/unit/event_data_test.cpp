// The slack source's event data as Argo's slack source (slack-go) marshals it.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion;
using namespace ganglion::slack::detail;

TEST(slack_event_data, slash_command_as_slack_go_marshals_it) {
  auto form = http::parse_query(
    "token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T0001&team_domain=example&enterprise_id=E0001"
    "&channel_id=C2147483705&channel_name=test&user_id=U2147483697&user_name=Steve"
    "&command=%2Fweather&text=94070+%3Cb%3E&response_url=https%3A%2F%2Fhooks.slack.com%2Fc"
    "&trigger_id=13345224609.738474920.8088930838d88f008e0&api_app_id=A123456");
  EXPECT_EQ(slash_command_data(form),
            R"({"token":"gIkuvaNzQIHg97ATvDxqgjtO","team_id":"T0001","team_domain":"example",)"
            R"("enterprise_id":"E0001","is_enterprise_install":false,"channel_id":"C2147483705",)"
            R"("channel_name":"test","user_id":"U2147483697","user_name":"Steve",)"
            R"("command":"/weather","text":"94070 \u003cb\u003e",)"
            R"("response_url":"https://hooks.slack.com/c",)"
            R"("trigger_id":"13345224609.738474920.8088930838d88f008e0","api_app_id":"A123456"})");
}

TEST(slack_event_data, slash_command_omits_empty_enterprise_fields) {
  auto form = http::parse_query("command=%2Fx&is_enterprise_install=true");
  EXPECT_EQ(slash_command_data(form),
            R"({"token":"","team_id":"","team_domain":"","is_enterprise_install":true,)"
            R"("channel_id":"","channel_name":"","user_id":"","user_name":"","command":"/x",)"
            R"("text":"","response_url":"","trigger_id":"","api_app_id":""})");
}

TEST(slack_event_data, interaction_payload_keeps_its_fields_in_order) {
  std::string error;
  auto data = interaction_data(R"({ "type": "block_actions", "user": {"id": "U1"},
    "actions": [{"action_id": "approve", "value": "a&b"}] })",
                               error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"type":"block_actions","user":{"id":"U1"},)"
                   R"("actions":[{"action_id":"approve","value":"a\u0026b"}]})");
  EXPECT_FALSE(interaction_data("[1]", error));
  EXPECT_FALSE(interaction_data("{", error));
}

TEST(slack_event_data, event_callback_is_the_inner_event_under_type_and_Data) {
  std::string error;
  auto e = read_events_api(
    R"({"token":"t","team_id":"T1","type":"event_callback","event":{"type":"app_mention",)"
    R"("user":"U1","text":"<@U2> hi","ts":"1.2"},"event_id":"Ev1","event_time":1531431954})",
    error);
  ASSERT_TRUE(e) << error;
  EXPECT_EQ(e->token, "t");
  EXPECT_EQ(e->type, "event_callback");
  EXPECT_EQ(e->data, R"({"type":"app_mention","Data":{"type":"app_mention","user":"U1",)"
                     R"("text":"\u003c@U2\u003e hi","ts":"1.2"}})");
}

TEST(slack_event_data, url_verification_carries_its_challenge) {
  std::string error;
  auto e = read_events_api(
    R"({"token":"Jhj5dZrVaK7ZwHHjRyZWjbDl",)"
    R"("challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"})",
    error);
  ASSERT_TRUE(e) << error;
  EXPECT_EQ(e->type, "url_verification");
  EXPECT_EQ(e->challenge, "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
  EXPECT_EQ(e->data, "");
}

TEST(slack_event_data, malformed_events_api_bodies_are_refused) {
  std::string error;
  EXPECT_FALSE(read_events_api("not json", error));
  EXPECT_FALSE(read_events_api(R"({"token":1,"type":"event_callback"})", error));
  EXPECT_FALSE(read_events_api(R"({"token":"t","type":"event_callback"})", error));
  EXPECT_FALSE(read_events_api(R"({"token":"t","type":"event_callback","event":{"x":1}})", error));
  EXPECT_FALSE(error.empty());
}
