// What the bitbucketserver source makes of a request: the X-Hub-Signature check (signed,
// unsigned, tampered), the repo:refs_changed decoding and Argo's event data.

#include <gtest/gtest.h>

#include "ganglion/dsl/go/codec.hpp"
#include "source/server_request.hpp"

using ganglion::bitbucket::detail::server_handling;
namespace http = ganglion::http;

namespace {

/// The source's reading of a request with `secret` and `metadata` (neither option set).
http::push_outcome server_request(const http::request& req, std::string secret,
                                  std::map<std::string, std::string> metadata) {
  return ganglion::bitbucket::detail::server_request(
    req, server_handling{std::move(secret), std::move(metadata), false, false, nullptr});
}

const std::string body =
  R"({"eventKey":"repo:refs_changed","changes":[{"refId":"refs/heads/main"}]})";

http::request post(std::string payload, http::header_list headers) {
  http::request req;
  req.method = "POST";
  req.target = req.path = "/push";
  req.headers = std::move(headers);
  req.body = std::move(payload);
  return req;
}

std::string signed_with(const std::string& secret, const std::string& payload) {
  return "sha256=" + ganglion::dsl::hmac_sha256_hex(secret, payload);
}

} // namespace

TEST(bitbucketserver_request, a_signed_request_is_published_with_argos_data) {
  auto out = server_request(post(body, {{"X-Hub-Signature", signed_with("s3cret", body)},
                                        {"X-Event-Key", "repo:refs_changed"}}),
                            "s3cret", {{"team", "scm"}});
  ASSERT_TRUE(out.data) << out.reply.body;
  EXPECT_EQ(*out.data, R"({"headers":{"X-Event-Key":["repo:refs_changed"],"X-Hub-Signature":[")"
                         + signed_with("s3cret", body) + R"("]},"body":)" + body
                         + R"(,"metadata":{"team":"scm"}})");
}

TEST(bitbucketserver_request, an_unsigned_request_is_refused_when_a_secret_is_set) {
  auto out = server_request(post(body, {}), "s3cret", {});
  EXPECT_FALSE(out.data);
  EXPECT_EQ(out.reply.status, 400);
  EXPECT_EQ(out.rejected_reason, "signature");
  EXPECT_EQ(out.reply.body,
            "failed to validate bitbucketserver webhook request: missing signature header");
}

TEST(bitbucketserver_request, a_tampered_body_a_wrong_secret_or_a_short_header_is_refused) {
  auto signature = signed_with("s3cret", body);
  for (const auto& [payload, header] :
       std::vector<std::pair<std::string, std::string>>{{body + " ", signature},
                                                        {body, signed_with("other", body)},
                                                        {body, "sha2"},
                                                        {body, signature.substr(0, 40)}}) {
    auto out = server_request(post(payload, {{"X-Hub-Signature", header}}), "s3cret", {});
    EXPECT_FALSE(out.data) << header;
    EXPECT_EQ(out.reply.status, 400);
    EXPECT_EQ(out.rejected_reason, "signature");
    EXPECT_EQ(out.reply.body,
              "failed to validate bitbucketserver webhook request: hmac verification failed");
  }
}

TEST(bitbucketserver_request, without_a_secret_the_signature_is_not_read) {
  auto out = server_request(post("[1, 2]", {{"X-Hub-Signature", "sha256=nonsense"}}), "", {});
  ASSERT_TRUE(out.data);
  EXPECT_EQ(out.data->substr(out.data->find(R"("body":)")), R"("body":[1,2]})");
}

TEST(bitbucketserver_request, a_refs_changed_body_must_decode_and_any_body_must_be_json) {
  auto out = server_request(post("[1]", {{"X-Event-Key", "repo:refs_changed"}}), "", {});
  EXPECT_FALSE(out.data);
  EXPECT_EQ(out.reply.status, 400);
  EXPECT_EQ(out.reply.body.rfind("decoding repo:refs_changed webhook: ", 0), 0u);
  out = server_request(post("not json", {{"X-Event-Key", "pr:opened"}}), "", {});
  EXPECT_FALSE(out.data);
  EXPECT_EQ(out.reply.status, 400);
  EXPECT_EQ(out.reply.body, "invalid event");
}
