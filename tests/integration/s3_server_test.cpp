// The test S3 endpoint (tests/support/s3/): its SigV4 check against AWS's documented example,
// and its answers to requests signed by libcurl, unsigned, tampered with or missing a header.

#include <ctime>
#include <string>
#include <vector>

#include <curl/curl.h>
#include <gtest/gtest.h>

#include "s3/s3_server.hpp"
#include "s3/sigv4.hpp"

namespace ganglion::test::s3 {
namespace {

/// AWS's "GET Object" example of header-based SigV4 for S3 (Signature Calculations for the
/// Authorization Header: Transferring Payload in a Single Chunk).
TEST(s3_sigv4, awss_documented_get_object_example_gives_its_signature) {
  sigv4_request request;
  request.method = "GET";
  request.path = "/test.txt";
  request.headers = {
    {"host", "examplebucket.s3.amazonaws.com"},
    {"range", "bytes=0-9"},
    {"x-amz-content-sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"x-amz-date", "20130524T000000Z"}};
  request.payload_hash = request.headers["x-amz-content-sha256"];
  request.amz_date = "20130524T000000Z";
  auto auth = parse_authorization(
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
    "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature="
    "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  ASSERT_TRUE(auth);
  EXPECT_EQ(auth->access_key, "AKIAIOSFODNN7EXAMPLE");
  EXPECT_EQ(auth->region, "us-east-1");
  EXPECT_EQ(
    canonical_request(request, auth->signed_headers),
    "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
    "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
    "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(expected_signature(request, *auth, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            auth->signature);
}

struct reply {
  long status = 0;
  std::string body;
};

std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

/// A GET (or HEAD) of `url` with `headers`, signed with `secret` for `access` when set.
reply get(const std::string& url, const std::vector<std::string>& headers,
          const std::string& access = {}, const std::string& secret = {}, bool head = false) {
  reply out;
  CURL* h = curl_easy_init();
  curl_slist* list = nullptr;
  for (const auto& line : headers)
    list = curl_slist_append(list, line.c_str());
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &append);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &out.body);
  curl_easy_setopt(h, CURLOPT_NOBODY, head ? 1L : 0L);
  if (!access.empty()) {
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, "aws:amz:us-east-1:s3");
    curl_easy_setopt(h, CURLOPT_USERNAME, access.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, secret.c_str());
  }
  if (curl_easy_perform(h) == CURLE_OK)
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  curl_slist_free_all(list);
  curl_easy_cleanup(h);
  return out;
}

const std::string payload =
  "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct s3_server_test : ::testing::Test {
  s3_server server;
  void SetUp() override { server.put_object("b", "dir/o.yaml", "kind: Pod\n"); }
  std::string url(const std::string& path) const { return "http://" + server.endpoint() + path; }
  const std::string& access() const { return server.options().access_key; }
  const std::string& secret() const { return server.options().secret_key; }
};

TEST_F(s3_server_test, a_request_signed_by_libcurl_gets_the_object_and_head_its_headers) {
  auto r = get(url("/b/dir/o.yaml"), {payload}, access(), secret());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "kind: Pod\n");
  auto h = get(url("/b/dir/o.yaml"), {payload}, access(), secret(), true);
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.body, "");
}

TEST_F(s3_server_test, another_secret_is_signature_does_not_match) {
  auto r = get(url("/b/dir/o.yaml"), {payload}, access(), "other");
  EXPECT_EQ(r.status, 403);
  EXPECT_NE(r.body.find("<Code>SignatureDoesNotMatch</Code>"), std::string::npos) << r.body;
}

TEST_F(s3_server_test, an_unsigned_or_forged_request_is_refused) {
  auto unsigned_request = get(url("/b/dir/o.yaml"), {payload});
  EXPECT_EQ(unsigned_request.status, 403);
  EXPECT_NE(unsigned_request.body.find("<Code>AccessDenied</Code>"), std::string::npos);
  char now[17];
  auto t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(now, sizeof now, "%Y%m%dT%H%M%SZ", &tm);
  auto forged = get(url("/b/dir/o.yaml"),
                    {payload, std::string{"x-amz-date: "} + now,
                     "Authorization: AWS4-HMAC-SHA256 Credential=" + access() + "/"
                       + std::string{now}.substr(0, 8)
                       + "/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;"
                         "x-amz-date, Signature="
                       + std::string(64, '0')});
  EXPECT_EQ(forged.status, 403);
  EXPECT_NE(forged.body.find("<Code>SignatureDoesNotMatch</Code>"), std::string::npos)
    << forged.body;
}

TEST_F(s3_server_test, s3s_errors_have_their_codes) {
  auto no_hash = get(url("/b/dir/o.yaml"), {}, access(), secret());
  EXPECT_EQ(no_hash.status, 400);
  EXPECT_NE(no_hash.body.find("<Code>InvalidRequest</Code>"), std::string::npos) << no_hash.body;
  auto unknown = get(url("/b/dir/o.yaml"), {payload}, "AKIAOTHER", secret());
  EXPECT_EQ(unknown.status, 403);
  EXPECT_NE(unknown.body.find("<Code>InvalidAccessKeyId</Code>"), std::string::npos);
  auto no_key = get(url("/b/absent"), {payload}, access(), secret());
  EXPECT_EQ(no_key.status, 404);
  EXPECT_NE(no_key.body.find("<Code>NoSuchKey</Code>"), std::string::npos);
  auto no_bucket = get(url("/nob/o.yaml"), {payload}, access(), secret());
  EXPECT_EQ(no_bucket.status, 404);
  EXPECT_NE(no_bucket.body.find("<Code>NoSuchBucket</Code>"), std::string::npos);
  ASSERT_EQ(server.requests().size(), 4u);
  EXPECT_EQ(server.requests()[3].error_code, "NoSuchBucket");
}

} // namespace
} // namespace ganglion::test::s3
