// One GitHub delivery → Argo's event data or a refusal: go-github's ValidatePayload (content
// types, the signature headers and algorithms, GitHub's documented HMAC test vector) and
// parseValidateRequest's map round trip, byte for byte.

#include <gtest/gtest.h>

#include "client/hooks_api.hpp"
#include "client/signature.hpp"
#include "source/delivery.hpp"

namespace ganglion::github::detail {
namespace {

const std::string secret = "It's a Secret to Everybody";

http::request delivery(std::string body, std::string signature,
                       std::string content_type = "application/json") {
  http::request r;
  r.method = "POST";
  r.target = r.path = "/push";
  r.headers = {
    {"content-type", content_type}, {"x-github-event", "push"}, {"X-GitHub-Delivery", "d-1"}};
  if (!signature.empty())
    r.headers.emplace_back("X-Hub-Signature-256", signature);
  r.body = std::move(body);
  return r;
}

TEST(github_signature, githubs_documented_test_vector) {
  EXPECT_EQ(sign("sha256", secret, "Hello, World!"),
            "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  EXPECT_EQ(
    signature_problem("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                      "Hello, World!", secret),
    "");
  EXPECT_EQ(
    signature_problem("sha256=757107EA0EB2509FC211221CCE984B8A37570B6D7586C22C46F4379C8B043E17",
                      "Hello, World!", secret),
    ""); // Go's hex.DecodeString takes upper case
  EXPECT_EQ(
    signature_problem("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                      "Hello, World?", secret),
    "payload signature check failed");
}

TEST(github_signature, go_githubs_other_answers) {
  EXPECT_EQ(signature_problem("", "x", secret), "missing signature");
  EXPECT_EQ(signature_problem("abc", "x", secret), "error parsing signature \"abc\"");
  EXPECT_EQ(signature_problem("md5=00", "x", secret), "unknown hash type prefix: \"md5\"");
  EXPECT_NE(signature_problem("sha256=zz", "x", secret).find("error decoding signature"),
            std::string::npos);
  EXPECT_EQ(signature_problem(sign("sha1", secret, "x"), "x", secret), "");
  EXPECT_EQ(signature_problem(sign("sha512", secret, "x"), "x", secret), "");
  EXPECT_EQ(signature_problem(sign("sha1", secret, "x"), "x", "other"),
            "payload signature check failed");
}

TEST(github_delivery, a_signed_json_delivery_is_argos_event_data) {
  std::string body = "{\"zen\":\"a < b & c\",\"hook_id\":12345678901,\"n\":1.50,"
                     "\"list\":[1e21,0.0000001,true,null],\"a\":{\"y\":1,\"x\":2}}";
  auto out =
    handle_delivery(delivery(body, sign("sha256", secret, body)), {secret, {{"team", "a"}}});
  ASSERT_TRUE(out.data) << out.reply.body;
  EXPECT_EQ(*out.data,
            R"({"headers":{"Content-Type":["application/json"],"X-Github-Delivery":["d-1"],)"
            R"("X-Github-Event":["push"],"X-Hub-Signature-256":[")"
              + sign("sha256", secret, body)
              + R"("]},"body":{"X-GitHub-Delivery":"d-1","X-GitHub-Event":"push",)"
                R"("a":{"x":2,"y":1},"hook_id":12345678901,"list":[1e+21,1e-7,true,null],)"
                R"("n":1.5,"zen":"a \u003c b \u0026 c"},"metadata":{"team":"a"}})");
}

TEST(github_delivery, the_sha1_header_is_the_fallback) {
  std::string body = R"({"a":1})";
  auto r = delivery(body, "");
  r.headers.emplace_back("X-Hub-Signature", sign("sha1", secret, body));
  EXPECT_TRUE(handle_delivery(r, {secret, {}}).data);
}

TEST(github_delivery, a_missing_or_tampered_signature_is_refused) {
  std::string body = R"({"a":1})";
  auto missing = handle_delivery(delivery(body, ""), {secret, {}});
  EXPECT_FALSE(missing.data);
  EXPECT_EQ(missing.reply.status, 400);
  EXPECT_EQ(missing.rejected_reason, "signature");
  EXPECT_EQ(missing.reply.body, "missing signature");
  auto tampered =
    handle_delivery(delivery(R"({"a":2})", sign("sha256", secret, body)), {secret, {}});
  EXPECT_FALSE(tampered.data);
  EXPECT_EQ(tampered.reply.status, 400);
  EXPECT_EQ(tampered.reply.body, "payload signature check failed");
  EXPECT_EQ(tampered.rejected_reason, "signature");
}

TEST(github_delivery, without_a_secret_nothing_is_checked) {
  EXPECT_TRUE(handle_delivery(delivery(R"({"a":1})", ""), {}).data);
}

TEST(github_delivery, a_form_delivery_carries_its_payload_field_signed_over_the_raw_body) {
  std::string form = "payload=%7B%22action%22%3A%22opened%22%7D&other=1";
  auto out = handle_delivery(
    delivery(form, sign("sha256", secret, form), "application/x-www-form-urlencoded"),
    {secret, {}});
  ASSERT_TRUE(out.data) << out.reply.body;
  EXPECT_NE(out.data->find(R"("body":{"X-GitHub-Delivery":"d-1","X-GitHub-Event":"push",)"
                           R"("action":"opened"})"),
            std::string::npos)
    << *out.data;
}

TEST(github_delivery, other_bodies_are_refused_with_go_githubs_message) {
  auto text = handle_delivery(delivery("hi", "", "text/plain"), {});
  EXPECT_EQ(text.reply.status, 400);
  EXPECT_EQ(text.reply.body, "webhook request has unsupported Content-Type \"text/plain\"");
  EXPECT_EQ(text.rejected_reason, "bad_request");
  auto none = handle_delivery(delivery("{}", "", ""), {});
  EXPECT_EQ(none.reply.body, "mime: no media type");
  auto array = handle_delivery(delivery("[1]", ""), {});
  EXPECT_FALSE(array.data);
  EXPECT_EQ(array.reply.body,
            "json: cannot unmarshal array into Go value of type map[string]interface {}");
  auto broken = handle_delivery(delivery("{", ""), {});
  EXPECT_FALSE(broken.data);
  EXPECT_EQ(broken.reply.status, 400);
  std::string deep(2000, '[');
  EXPECT_FALSE(handle_delivery(delivery("{\"a\":" + deep, ""), {}).data);
}

TEST(github_hooks_api, the_create_body_is_go_githubs) {
  hook_config c;
  c.url = "http://hooks.example/push?a=1&b=<2>";
  c.content_type = "json";
  c.insecure = true;
  c.secret = "s";
  c.events = {"push", "*"};
  c.active = true;
  EXPECT_EQ(create_body(c),
            R"({"name":"web","config":{"content_type":"json","insecure_ssl":"1","secret":"s",)"
            R"("url":"http://hooks.example/push?a=1&b=<2>"},"events":["push","*"],"active":true})"
            "\n");
  hook_config bare;
  bare.url = "http://x/p";
  EXPECT_EQ(create_body(bare),
            R"({"name":"web","config":{"insecure_ssl":"0","url":"http://x/p"},"active":false})"
            "\n");
}

TEST(github_hooks_api, argos_compare_hook) {
  hook h{1, "http://x/p", {"push", "issues"}};
  EXPECT_TRUE(same_hook(h, "http://x/p", {"issues", "push"}));
  EXPECT_FALSE(same_hook(h, "http://x/q", {"issues", "push"}));
  EXPECT_FALSE(same_hook(h, "http://x/p", {"push"}));
  EXPECT_TRUE(same_hook({2, "http://x/p", {"*", "push"}}, "http://x/p", {"*"}));
}

} // namespace
} // namespace ganglion::github::detail
