// `git.githubApp`: the App's JWT as GitHub checks it (signature verified with the public key,
// claims as ghinstallation sets them), a bad key named at its field, and the API root a git URL
// leads to.

#include <chrono>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "artifact/github_app.hpp"
#include "github_server.hpp"
#include "test_pem.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using namespace std::chrono;
const std::string key_at = "k8s.source.git.githubApp.privateKey";

std::string error_of(std::string_view pem) {
  try {
    github_app_jwt(pem, 1, system_clock::now(), key_at);
  } catch (const artifact_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(github_app_jwt, is_signed_with_the_apps_key_and_names_the_app_for_two_minutes) {
  auto keys = test::make_rsa_key_pair();
  auto now = system_clock::time_point{seconds{1'800'000'000}} + milliseconds{700};
  auto jwt = github_app_jwt(keys.private_pem, 12345, now, key_at);
  std::string claims;
  ASSERT_EQ(test::verify_rs256_jwt(jwt, keys.public_pem, &claims), "");
  auto c = nlohmann::json::parse(claims);
  EXPECT_EQ(c["iss"], "12345") << "GitHub wants the App ID as the issuer";
  EXPECT_EQ(c["iat"], 1'800'000'000 - 30) << "30 s back for clock drift, whole seconds";
  EXPECT_EQ(c["exp"], 1'800'000'000 - 30 + 120);

  auto other = test::make_rsa_key_pair();
  EXPECT_EQ(test::verify_rs256_jwt(jwt, other.public_pem), "the signature does not verify");
}

TEST(github_app_jwt, a_pkcs1_key_signs_as_well) {
  auto keys = test::make_rsa_key_pair();
  // `openssl rsa -traditional` form, what GitHub hands out (BEGIN RSA PRIVATE KEY).
  auto jwt = github_app_jwt(test::to_pkcs1_pem(keys.private_pem), 7, system_clock::now(), key_at);
  EXPECT_EQ(test::verify_rs256_jwt(jwt, keys.public_pem), "");
}

TEST(github_app_jwt, a_key_that_is_not_rsa_pem_is_an_error_at_private_key) {
  EXPECT_EQ(error_of("not a key"),
            key_at
              + ": not an RSA private key in PEM (\"BEGIN RSA PRIVATE KEY\" or \"BEGIN "
                "PRIVATE KEY\", unencrypted)");
  auto truncated = test::make_rsa_key_pair().private_pem.substr(0, 200);
  auto message = error_of(truncated);
  EXPECT_EQ(message.rfind(key_at + ": not an RSA private key", 0), 0u) << message;
  EXPECT_EQ(message.find(truncated.substr(40, 40)), std::string::npos) << "the key leaked";
  EXPECT_EQ(error_of(kubernetes::testing::key_pem),
            key_at + ": the key is not an RSA key (GitHub Apps sign with RS256)");
}

TEST(github_api_url, the_api_is_api_github_com_unless_one_is_configured) {
  EXPECT_EQ(github_api_url(""), "https://api.github.com");
  EXPECT_EQ(github_api_url("https://ghe.example.com/api/v3/"), "https://ghe.example.com/api/v3");
}

TEST(github_api_url, the_jwt_goes_over_https_only) {
  EXPECT_EQ(github_api_url_problem("https://api.github.com"), "");
  EXPECT_EQ(github_api_url_problem("https://127.0.0.1:8443/api/v3"), "");
  EXPECT_NE(github_api_url_problem("http://127.0.0.1:8080/api/v3"), "");
  EXPECT_NE(github_api_url_problem("https://user:pass@ghe.example.com/api/v3"), "");
  EXPECT_NE(github_api_url_problem("https:///api/v3"), "");
}

} // namespace
} // namespace ganglion::kubernetes::detail
