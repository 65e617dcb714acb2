// The pieces of a webhook event's data, as Go's net/http would produce them.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ganglion/http/internal/webhook_data.hpp"

using namespace ganglion::http;
using namespace ganglion::http::detail;

namespace {

TEST(http_webhook_data, canonical_header_keys_follow_go) {
  EXPECT_EQ(canonical_header_key("content-type"), "Content-Type");
  EXPECT_EQ(canonical_header_key("X-GITHUB-EVENT"), "X-Github-Event");
  EXPECT_EQ(canonical_header_key("x-b3-traceid"), "X-B3-Traceid");
  EXPECT_EQ(canonical_header_key("etag"), "Etag");
  EXPECT_EQ(canonical_header_key("bad header"), "bad header");
}

TEST(http_webhook_data, query_values_are_lists) {
  EXPECT_EQ(query_to_json(""), "{}");
  EXPECT_EQ(query_to_json("b=2&a=1&a=3"), R"({"a":["1","3"],"b":["2"]})");
  EXPECT_EQ(query_to_json("q=a+b%2Fc&empty=&flag"), R"({"empty":[""],"flag":[""],"q":["a b/c"]})");
}

TEST(http_webhook_data, malformed_query_pairs_are_skipped) {
  EXPECT_EQ(query_to_json("a=%zz&b=1"), R"({"b":["1"]})");
  EXPECT_EQ(query_to_json("a=1;c=2&b=%4"), "{}");
  EXPECT_EQ(query_to_json("&&x=1&"), R"({"x":["1"]})");
}

TEST(http_webhook_data, invalid_utf8_is_replaced_not_thrown) {
  EXPECT_EQ(query_to_json("a=%ff"), R"({"a":["\ufffd"]})");
}

// Header values are written as Go's json.Marshal writes an http.Header (HTML escaping on).
TEST(http_webhook_data, header_values_are_escaped_like_go) {
  std::vector<std::pair<std::string, std::string>> cases = {
    {"plain", R"("plain")"},
    {"quote \" and \\ slash", R"("quote \" and \\ slash")"},
    {"tab\tnew\nline\r", R"("tab\tnew\nline\r")"},
    {std::string("nul\0bell\x07", 9), R"("nul\u0000bell\u0007")"},
    {"\x7f del", "\"\x7f del\""},
    {"caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\""},
    {"</script>&", R"("\u003c/script\u003e\u0026")"},
    {"bad \xff\xfe utf8", R"("bad \ufffd\ufffd utf8")"}};
  for (const auto& [value, expected] : cases)
    EXPECT_EQ(headers_to_json({{"x-v", value}}, false), R"({"X-V":[)" + expected + "]}") << value;
}

TEST(http_webhook_data, headers_grouped_by_canonical_name) {
  header_list headers{{"host", "example.com"},
                      {"content-type", "application/json"},
                      {"X-Multi", "1"},
                      {"x-multi", "2"},
                      {"Transfer-Encoding", "chunked"},
                      {"authorization", "Bearer secret"}};
  EXPECT_EQ(
    headers_to_json(headers, false),
    R"({"Authorization":["Bearer secret"],"Content-Type":["application/json"],"X-Multi":["1","2"]})");
  EXPECT_EQ(
    headers_to_json(headers, true),
    R"({"Authorization":["*** Masked Auth Secret ***"],"Content-Type":["application/json"],"X-Multi":["1","2"]})");
}

TEST(http_webhook_data, json_bodies_are_validated_and_minified) {
  std::string error;
  EXPECT_EQ(validate_json(" { \"a\" : [1, 2.50, \"x y\"] }\n", error), R"({"a":[1,2.50,"x y"]})");
  EXPECT_EQ(validate_json("42", error), "42");
  EXPECT_FALSE(validate_json("{\"a\":", error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(validate_json("", error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(validate_json("{} {}", error));
}

TEST(http_webhook_data, form_content_type_by_media_type) {
  EXPECT_TRUE(is_form_content_type("application/x-www-form-urlencoded"));
  EXPECT_TRUE(is_form_content_type("Application/X-WWW-Form-Urlencoded; charset=utf-8"));
  EXPECT_FALSE(is_form_content_type("application/json"));
  EXPECT_FALSE(is_form_content_type(""));
}

TEST(http_webhook_data, event_data_shape) {
  EXPECT_EQ(webhook_event_data(R"({"A":["1"]})", "[1]", {}),
            R"({"header":{"A":["1"]},"body":[1]})");
  EXPECT_EQ(webhook_event_data("{}", "{}", {{"k", "v"}}),
            R"({"header":{},"body":{},"metadata":{"k":"v"}})");
}

TEST(http_responder, replies_once) {
  int sent = 0;
  int status = 0;
  {
    responder reply{[&](response&& r) {
      ++sent;
      status = r.status;
    }};
    auto copy = reply;
    EXPECT_FALSE(reply.replied());
    copy(text_response(201, "first"));
    reply(text_response(202, "second"));
    EXPECT_TRUE(reply.replied());
  }
  EXPECT_EQ(sent, 1);
  EXPECT_EQ(status, 201);
}

TEST(http_responder, dropping_without_reply_sends_500) {
  int status = 0;
  {
    responder reply{[&](response&& r) { status = r.status; }};
  }
  EXPECT_EQ(status, 500);
}

TEST(http_request, header_lookup_is_case_insensitive) {
  request r;
  r.headers = {{"Content-Type", "a"}, {"content-type", "b"}};
  EXPECT_EQ(r.header("CONTENT-TYPE"), "a");
  EXPECT_EQ(r.header("missing"), "");
}

} // namespace
