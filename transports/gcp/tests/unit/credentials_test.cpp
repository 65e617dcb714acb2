// A service account's JSON key and the JWT-bearer assertion it signs.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "client/api.hpp"
#include "client/credentials.hpp"
#include "ganglion/dsl/go/jwt.hpp"
#include "github_server.hpp"

using namespace ganglion::gcp::detail;
namespace test = ganglion::test;

namespace {

std::string key_json(const std::string& pem, const std::string& token_uri) {
  nlohmann::json j{{"type", "service_account"},
                   {"project_id", "p1"},
                   {"private_key_id", "kid-1"},
                   {"private_key", pem},
                   {"client_email", "svc@p1.iam.gserviceaccount.com"}};
  if (!token_uri.empty())
    j["token_uri"] = token_uri;
  return j.dump();
}

std::string error_of(const std::string& json) {
  try {
    parse_service_account(json);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

} // namespace

TEST(gcp_credentials, a_service_account_key_is_read) {
  auto a = parse_service_account(key_json("PEM", ""));
  EXPECT_EQ(a.client_email, "svc@p1.iam.gserviceaccount.com");
  EXPECT_EQ(a.private_key, "PEM");
  EXPECT_EQ(a.private_key_id, "kid-1");
  EXPECT_EQ(a.token_uri, "https://oauth2.googleapis.com/token");
}

TEST(gcp_credentials, what_is_not_a_service_account_key_says_why_without_the_key) {
  EXPECT_EQ(error_of("{"), "the credentials are not a JSON object (a service account key)");
  EXPECT_EQ(error_of(R"({"type":"authorized_user","private_key":"SECRET"})"),
            "the credentials are of type \"authorized_user\": only a service account key "
            "(\"service_account\") runs");
  EXPECT_EQ(error_of(R"({"type":"service_account","private_key":"SECRET"})"),
            "the service account key has no client_email");
  EXPECT_EQ(error_of(key_json("PEM", "http://oauth.example.com/token")),
            "the service account's token_uri must be https:// (the signed assertion is never "
            "sent in clear, except to a loopback address)");
  EXPECT_EQ(error_of(key_json("PEM", "http://127.0.0.1:9/token")), "");
}

TEST(gcp_credentials, the_assertion_is_an_rs256_jwt_as_golang_oauth2_signs_it) {
  auto keys = test::make_rsa_key_pair();
  auto account = parse_service_account(key_json(keys.private_pem, ""));
  auto now = std::chrono::system_clock::time_point{std::chrono::seconds{1'800'000'000}};
  auto jwt = token_assertion(account, now);
  std::string claims;
  ASSERT_EQ(test::verify_rs256_jwt(jwt, keys.public_pem, &claims), "");
  EXPECT_EQ(claims, R"({"iss":"svc@p1.iam.gserviceaccount.com",)"
                    R"("scope":"https://www.googleapis.com/auth/pubsub )"
                    R"(https://www.googleapis.com/auth/cloud-platform",)"
                    R"("aud":"https://oauth2.googleapis.com/token","exp":1800003590,)"
                    R"("iat":1799999990})");
  EXPECT_EQ(jwt.substr(0, jwt.find('.')),
            ganglion::dsl::base64url_encode(R"({"alg":"RS256","typ":"JWT","kid":"kid-1"})"));
  EXPECT_EQ(token_request_body("a.b.c"),
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b.c");
}

TEST(gcp_credentials, a_key_that_is_not_rsa_pem_cannot_sign) {
  auto account = parse_service_account(key_json("not a key", ""));
  EXPECT_THROW(token_assertion(account, std::chrono::system_clock::now()),
               ganglion::dsl::jwt_error);
}

TEST(gcp_credentials, the_token_answer_is_read) {
  auto now = std::chrono::steady_clock::now();
  auto t = parse_token_response(
    R"({"access_token":"ya29.x","expires_in":120,"token_type":"Bearer"})", now);
  EXPECT_EQ(t.value, "ya29.x");
  EXPECT_EQ(t.expires, now + std::chrono::seconds(120));
  EXPECT_THROW(parse_token_response(R"({"error":"invalid_grant"})", now), std::invalid_argument);
}

TEST(gcp_api, the_emulator_host_replaces_the_api_url) {
  EXPECT_EQ(api_root("https://pubsub.googleapis.com/", ""), "https://pubsub.googleapis.com");
  EXPECT_EQ(api_root("https://pubsub.googleapis.com", "127.0.0.1:8085"), "http://127.0.0.1:8085");
}
