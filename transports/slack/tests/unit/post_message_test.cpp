// chat.postMessage as Argo's slack trigger sends it (notifications-engine on slack-go): the form,
// its encoding, and how Slack's answers are judged.

#include <gtest/gtest.h>

#include "client/web_api.hpp"
#include "trigger/post_message.hpp"

using namespace ganglion::slack;
using namespace ganglion::slack::detail;

namespace {

trigger_spec message(std::string channel, std::string text) {
  trigger_spec s;
  s.channel = std::move(channel);
  s.message = std::move(text);
  return s;
}

ganglion::http::client_response answer(long status, std::string body,
                                       std::vector<std::pair<std::string, std::string>> h = {}) {
  ganglion::http::client_response r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(h);
  return r;
}

} // namespace

TEST(slack_post_message, form_is_encoded_as_go_url_values) {
  EXPECT_EQ(query_escape("a b&c=d/é~-_."), "a+b%26c%3Dd%2F%C3%A9~-_.");
  EXPECT_EQ(encode_form({{"text", "x y"}, {"channel", "general"}, {"blocks", "[]"}}),
            "blocks=%5B%5D&channel=general&text=x+y");
}

TEST(slack_post_message, a_plain_message_sends_empty_attachments_and_blocks) {
  auto form = post_message_form(message("#general", "hello"), "general", "");
  EXPECT_EQ(encode_form(form), "attachments=%5B%5D&blocks=%5B%5D&channel=general&text=hello");
}

TEST(slack_post_message, sender_thread_attachments_and_blocks) {
  auto s = message("c", "m");
  s.sender = {"bot", ":robot_face:"};
  s.attachments = R"( [ {"text" : "a", "color":"good"} ] )";
  s.blocks = R"([{"type":"divider"}])";
  s.thread = {"build-1", true};
  auto form = post_message_form(s, "c", "1700000000.000100");
  EXPECT_EQ(form.at("username"), "bot");
  EXPECT_EQ(form.at("icon_emoji"), ":robot_face:");
  EXPECT_EQ(form.count("icon_url"), 0u);
  EXPECT_EQ(form.at("attachments"), R"([{"text":"a","color":"good"}])");
  EXPECT_EQ(form.at("blocks"), R"([{"type":"divider"}])");
  EXPECT_EQ(form.at("thread_ts"), "1700000000.000100");
  EXPECT_EQ(form.at("reply_broadcast"), "true");
}

TEST(slack_post_message, icons_are_an_emoji_a_url_or_left_out) {
  auto s = message("c", "m");
  s.sender.icon = "https://example.com/i.png";
  EXPECT_EQ(post_message_form(s, "c", "").at("icon_url"), "https://example.com/i.png");
  for (const char* bad : {"robot", "::", "ftp://x/i.png", "https:///i.png", "http://a b"}) {
    s.sender.icon = bad;
    auto form = post_message_form(s, "c", "");
    EXPECT_EQ(form.count("icon_url") + form.count("icon_emoji"), 0u) << bad;
  }
}

TEST(slack_post_message, no_thread_ts_without_a_key_and_no_broadcast_unless_asked) {
  auto form = post_message_form(message("c", "m"), "c", "1.2");
  EXPECT_EQ(form.count("thread_ts"), 0u);
  EXPECT_EQ(form.count("reply_broadcast"), 0u);
}

TEST(slack_post_message, argo_errors_before_posting) {
  EXPECT_THROW(recipient_of(message("", "m")), std::runtime_error);
  EXPECT_EQ(recipient_of(message("#ops", "m")), "ops");
  try {
    post_message_form(message("c", ""), "c", "");
    FAIL() << "an empty message posted";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "no text to post: At least one of message/attachments/blocks should be provided");
  }
  auto s = message("c", "m");
  s.attachments = R"({"text":"a"})";
  EXPECT_THROW(post_message_form(s, "c", ""), std::runtime_error);
  s.attachments = "[";
  EXPECT_THROW(post_message_form(s, "c", ""), std::runtime_error);
}

TEST(slack_post_message, parameters_rewrite_the_fields) {
  auto base = message("c", "m");
  base.sender.username = "kept?";
  auto s = fields_from_json(
    R"({"channel":"#x","message":"from event","thread":{"messageAggregationKey":"k"},)"
    R"("slackToken":{"name":"s","key":"t"}})",
    base);
  EXPECT_EQ(s.channel, "#x");
  EXPECT_EQ(s.message, "from event");
  EXPECT_EQ(s.thread.message_aggregation_key, "k");
  EXPECT_EQ(s.sender.username, "") << "the resource is the whole slack object";
  EXPECT_THROW(fields_from_json("[]", base), std::runtime_error);
}

TEST(slack_web_api, answers_are_judged_as_slack_go_does) {
  auto ok =
    read_api_response("chat.postMessage", answer(200, R"({"ok":true,"channel":"C1","ts":"1.2"})"));
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.channel, "C1");
  EXPECT_EQ(ok.ts, "1.2");
  auto refused = read_api_response("chat.postMessage",
                                   answer(200, R"({"ok":false,"error":"channel_not_found"})"));
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.error, "slack chat.postMessage: channel_not_found");
  auto limited = read_api_response("chat.postMessage", answer(429, "", {{"retry-after", "30"}}));
  EXPECT_FALSE(limited.ok);
  EXPECT_EQ(limited.error, "slack chat.postMessage: slack rate limit exceeded, retry after 30s");
  EXPECT_EQ(read_api_response("chat.postMessage", answer(500, "<html>")).error,
            "slack chat.postMessage: HTTP 500");
  EXPECT_FALSE(read_api_response("chat.postMessage", answer(200, "ok")).ok);
  EXPECT_FALSE(read_api_response("chat.postMessage", answer(0, "")).ok);
}

TEST(slack_web_api, the_thread_book_remembers_per_channel_and_key) {
  thread_book book;
  EXPECT_EQ(book.find("c", "k"), "");
  book.remember("c", "k", "1.2");
  EXPECT_EQ(book.find("c", "k"), "1.2");
  EXPECT_EQ(book.find("d", "k"), "");
  EXPECT_EQ(book.find("c", "j"), "");
}
