// Slack's request signatures, checked with the published vectors: the example of Slack's
// "Verifying requests from Slack" and slack-go's security_test.go.

#include <gtest/gtest.h>

#include "client/signature.hpp"

using namespace ganglion::slack::detail;
using namespace std::chrono_literals;

namespace {

constexpr const char* docs_secret = "8f742231b10e8888abcd99yyyzzz85a5";
constexpr const char* docs_timestamp = "1531420618";
constexpr const char* docs_body =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V"
  "&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text="
  "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmib"
  "IGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
constexpr const char* docs_signature =
  "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";

std::chrono::system_clock::time_point at(std::int64_t seconds) {
  return std::chrono::system_clock::time_point{std::chrono::seconds{seconds}};
}

} // namespace

TEST(slack_signature, slack_docs_example_verifies) {
  EXPECT_EQ(
    signature_problem(docs_signature, docs_timestamp, docs_body, docs_secret, at(1531420618) + 30s),
    std::nullopt);
}

TEST(slack_signature, slack_go_vector_verifies) {
  const char* body =
    R"({"token":"aF5ynEYQH0dFN9imlgcADxDB","team_id":"XXXXXXXXX","api_app_id":"YYYYYYYYY",)"
    R"("event":{"type":"app_mention","user":"AAAAAAAAA","text":"<@EEEEEEEEE> hello world",)"
    R"("client_msg_id":"477cc591-ch73-a14z-4db8-g0cd76321bec","ts":"1531431954.000073",)"
    R"("channel":"TTTTTTTTT","event_ts":"1531431954.000073"},"type":"event_callback",)"
    R"("event_id":"TvBP7LRED7","event_time":1531431954,"authed_users":["EEEEEEEEE"]})";
  EXPECT_EQ(signature_problem("v0=adada4ed31709aef585c2580ca3267678c6a8eaeb7e0c1aca3ee57b656886b2c",
                              "1531431954", body, "e6b19c573432dcc6b075501d51b51bb8",
                              at(1531431954)),
            std::nullopt);
  EXPECT_EQ(signature_problem("v0=adada4ed31709aef585c2580ca3267678c6a8eaeb7e0c1aca3ee57b656886b2c",
                              "1531431954", body, "e6b19c573432dcc6b075501d51b51boo",
                              at(1531431954)),
            "signature validation failed");
}

TEST(slack_signature, tampered_requests_fail) {
  auto now = at(1531420618);
  std::string body = docs_body;
  body.back() = 'd';
  EXPECT_EQ(signature_problem(docs_signature, docs_timestamp, body, docs_secret, now),
            "signature validation failed");
  EXPECT_EQ(signature_problem(docs_signature, "1531420619", docs_body, docs_secret, now),
            "signature validation failed");
  EXPECT_EQ(signature_problem("v0=00", docs_timestamp, docs_body, docs_secret, now),
            "signature validation failed");
  EXPECT_EQ(signature_problem("", docs_timestamp, docs_body, docs_secret, now), "missing headers");
  EXPECT_EQ(signature_problem(docs_signature, "", docs_body, docs_secret, now), "missing headers");
  EXPECT_EQ(signature_problem(docs_signature, "15314x", docs_body, docs_secret, now),
            "invalid timestamp");
}

TEST(slack_signature, the_replay_window_is_five_minutes_either_way) {
  auto sent = at(1531420618);
  EXPECT_EQ(signature_problem(docs_signature, docs_timestamp, docs_body, docs_secret, sent + 300s),
            std::nullopt);
  EXPECT_EQ(signature_problem(docs_signature, docs_timestamp, docs_body, docs_secret, sent + 301s),
            "timestamp is too old");
  EXPECT_EQ(signature_problem(docs_signature, docs_timestamp, docs_body, docs_secret, sent - 301s),
            "timestamp is too old");
  EXPECT_EQ(signature_problem(docs_signature, "9223372036854775807", docs_body, docs_secret, sent),
            "timestamp is too old");
}

TEST(slack_signature, case_and_prefix_as_slack_go_reads_them) {
  std::string upper = docs_signature;
  for (std::size_t i = 3; i < upper.size(); ++i)
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
  auto now = at(1531420618);
  EXPECT_EQ(signature_problem(upper, docs_timestamp, docs_body, docs_secret, now), std::nullopt);
  EXPECT_EQ(signature_problem(std::string{docs_signature}.substr(3), docs_timestamp, docs_body,
                              docs_secret, now),
            std::nullopt);
}
