// redact_url_userinfo: credentials in URLs never reach a log line, an error or /v1/status.

#include <gtest/gtest.h>

#include <string>

#include <spdlog/spdlog.h>

#include "ganglion/core/logging.hpp"
#include "ganglion/core/redact.hpp"
#include "ganglion/core/status.hpp"
#include "log_capture.hpp"

namespace ganglion::core {
namespace {

std::string r(std::string_view text) {
  return redact_url_userinfo(text);
}

TEST(redact_url_userinfo, replaces_user_and_password) {
  EXPECT_EQ(r("nats://alice:s3cret@nats:4222"), "nats://***@nats:4222");
  EXPECT_EQ(r("https://user:pass@example.com/path?q=1#f"), "https://***@example.com/path?q=1#f");
  EXPECT_EQ(r("amqp://guest:guest@127.0.0.1:5672/"), "amqp://***@127.0.0.1:5672/");
}

TEST(redact_url_userinfo, replaces_a_user_only_userinfo_which_may_be_a_token) {
  EXPECT_EQ(r("https://ghp_abc123@github.com/org/repo.git"), "https://***@github.com/org/repo.git");
  EXPECT_EQ(r("ssh://git@github.com/org/repo"), "ssh://***@github.com/org/repo");
}

TEST(redact_url_userinfo, finds_every_url_in_free_text) {
  EXPECT_EQ(r("cannot connect to redis://u:p@10.0.0.1:6379: refused; retrying http://a:b@h/x"),
            "cannot connect to redis://***@10.0.0.1:6379: refused; retrying http://***@h/x");
  EXPECT_EQ(r("nats://u1:p1@h1:4222,nats://u2:p2@h2:4222"), "nats://***@h1:4222,nats://***@h2:4222");
  EXPECT_EQ(r("url 'http://u:p@h' and \"https://x:y@z\""), "url 'http://***@h' and \"https://***@z\"");
  EXPECT_EQ(r("<http://u:p@h>"), "<http://***@h>");
}

TEST(redact_url_userinfo, takes_the_last_at_of_the_authority) {
  EXPECT_EQ(r("http://user:p@ss@host/"), "http://***@host/");
  EXPECT_EQ(r("http://user%40corp.com:p%40ss@host:8080"), "http://***@host:8080");
  EXPECT_EQ(r("http://us:pw@host/path/with@sign"), "http://***@host/path/with@sign");
}

TEST(redact_url_userinfo, handles_ipv6_hosts) {
  EXPECT_EQ(r("http://u:p@[::1]:8080/x"), "http://***@[::1]:8080/x");
  EXPECT_EQ(r("http://[fe80::1%25eth0]:80/"), "http://[fe80::1%25eth0]:80/");
  EXPECT_EQ(r("http://[::1]:80/@x"), "http://[::1]:80/@x");
}

TEST(redact_url_userinfo, leaves_text_without_userinfo_alone) {
  for (const char* text :
       {"", "no url here", "http://example.com/a@b", "http://host:80?mail=bob@example.com",
        "mail bob@example.com", "time 12:30 bob@example.com", "mailto:bob@example.com",
        "http://@host/", "://", "http://", "@", "a@", "x://y", "key=value@ here"}) {
    std::string out = "untouched";
    EXPECT_FALSE(redact_url_userinfo_into(text, out)) << text;
    EXPECT_EQ(out, "untouched");
    EXPECT_EQ(r(text), text);
  }
}

TEST(redact_url_userinfo, keeps_scp_style_addresses_without_password) {
  EXPECT_EQ(r("git@github.com:org/repo.git"), "git@github.com:org/repo.git");
  EXPECT_EQ(r("cloning git@github.com:org/repo.git failed"),
            "cloning git@github.com:org/repo.git failed");
}

TEST(redact_url_userinfo, redacts_scp_style_addresses_with_password) {
  EXPECT_EQ(r("git:tok3n@github.com:org/repo.git"), "***@github.com:org/repo.git");
  EXPECT_EQ(r("cloning url=git:tok3n@github.com:org/repo.git"),
            "cloning url=***@github.com:org/repo.git");
  EXPECT_EQ(r("dsn user:pw@[::1]:5432/db"), "dsn ***@[::1]:5432/db");
}

TEST(redact_url_userinfo, stops_at_what_ends_a_url_in_text) {
  EXPECT_EQ(r("http://host said:\n user:x@y"), "http://host said:\n user:x@y");
  EXPECT_EQ(r("{\"url\":\"http://u:p@h\",\"who\":\"a@b\"}"),
            "{\"url\":\"http://***@h\",\"who\":\"a@b\"}");
}

TEST(redact_url_userinfo, is_idempotent) {
  auto once = r("see nats://u:p@h:1 and git:pw@host:repo");
  EXPECT_EQ(r(once), once);
  std::string out;
  EXPECT_TRUE(redact_url_userinfo_into(once, out)); // *** replaced by ***: same text
  EXPECT_EQ(out, once);
}

TEST(redact_url_userinfo, in_place) {
  std::string text = "kafka://k:v@broker:9092";
  EXPECT_TRUE(redact_url_userinfo_in_place(text));
  EXPECT_EQ(text, "kafka://***@broker:9092");
  std::string plain = "broker:9092";
  EXPECT_FALSE(redact_url_userinfo_in_place(plain));
  EXPECT_EQ(plain, "broker:9092");
}

TEST(redact_url_userinfo, status_board_shows_no_password) {
  status_board board;
  board.set("source", "s/e", phase::restarting, "cannot connect to nats://u:s3cret@h:4222",
            "connecting to http://u:s3cret@h/");
  auto record = board.executions("trigger", "s/t");
  record->record({std::chrono::system_clock::now(), false, "POST https://tok@h/x failed",
                  "redirected to https://a:s3cret@h2/", ""});
  board.set_config({"Error", "", 1, {"f.yaml:1:1: bad url http://u:s3cret@h:x"}});
  auto json = board.to_json();
  EXPECT_EQ(json.find("s3cret"), std::string::npos) << json;
  EXPECT_EQ(json.find("tok@"), std::string::npos) << json;
  EXPECT_NE(json.find("nats://***@h:4222"), std::string::npos) << json;
  for (const auto& line : board.blockers())
    EXPECT_EQ(line.find("s3cret"), std::string::npos) << line;
}

TEST(redact_url_userinfo, log_lines_show_no_password) {
  redact_log_lines();
  redact_log_lines();
  test::log_capture log;
  spdlog::warn("cannot connect to {}", "nats://u:s3cret@h:4222");
  spdlog::warn("plain line with no url");
  EXPECT_EQ(log.count("s3cret"), 0u);
  EXPECT_EQ(log.count("nats://***@h:4222"), 1u);
  EXPECT_EQ(log.count("plain line with no url"), 1u);

  std::vector<std::string> seen;
  set_log_callback([&seen](log_level, std::string_view line) { seen.emplace_back(line); });
  spdlog::warn("to https://a:s3cret@h/");
  set_log_callback({});
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], "to https://***@h/");
}

} // namespace
} // namespace ganglion::core
