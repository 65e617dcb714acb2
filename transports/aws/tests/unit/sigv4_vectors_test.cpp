// The SigV4 verifier of the test AWS endpoints (tests/support/s3/sigv4.*, used by
// tests/support/aws) against AWS's published test vectors (the aws-sig-v4-test-suite's
// get-vanilla, post-vanilla and get-vanilla-query-order-key-case, and the IAM ListUsers example
// of the SigV4 documentation): a verifier that agreed with a wrong signer would prove nothing.

#include <gtest/gtest.h>

#include "s3/sigv4.hpp"

using namespace ganglion::test::s3;

namespace {

const std::string secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

sigv4_request vanilla(std::string method, std::string query = {}) {
  sigv4_request r;
  r.method = std::move(method);
  r.path = "/";
  r.query = std::move(query);
  r.headers = {{"host", "example.amazonaws.com"}, {"x-amz-date", "20150830T123600Z"}};
  r.payload_hash = sha256_hex("");
  r.amz_date = "20150830T123600Z";
  return r;
}

sigv4_authorization scope(std::string service) {
  return {"AKIDEXAMPLE", "20150830", "us-east-1", std::move(service), {"host", "x-amz-date"}, {}};
}

} // namespace

TEST(sigv4_test_vectors, get_vanilla) {
  auto r = vanilla("GET");
  EXPECT_EQ(canonical_request(r, {"host", "x-amz-date"}),
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(expected_signature(r, scope("service"), secret),
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(sigv4_test_vectors, post_vanilla) {
  EXPECT_EQ(expected_signature(vanilla("POST"), scope("service"), secret),
            "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

TEST(sigv4_test_vectors, get_vanilla_query_order_key_case) {
  EXPECT_EQ(expected_signature(vanilla("GET", "Param2=value2&Param1=value1"), scope("service"),
                               secret),
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST(sigv4_test_vectors, iam_list_users_of_the_documentation) {
  sigv4_request r;
  r.method = "GET";
  r.path = "/";
  r.query = "Action=ListUsers&Version=2010-05-08";
  r.headers = {{"content-type", "application/x-www-form-urlencoded; charset=utf-8"},
               {"host", "iam.amazonaws.com"},
               {"x-amz-date", "20150830T123600Z"}};
  r.payload_hash = sha256_hex("");
  r.amz_date = "20150830T123600Z";
  auto auth = scope("iam");
  auth.signed_headers = {"content-type", "host", "x-amz-date"};
  EXPECT_EQ(expected_signature(r, auth, secret),
            "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
  auto header = parse_authorization(
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
    "SignedHeaders=content-type;host;x-amz-date, "
    "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
  ASSERT_TRUE(header);
  EXPECT_EQ(header->service, "iam");
  EXPECT_EQ(header->signed_headers, auth.signed_headers);
}
