// SNS deliveries: the string to sign of each type, the signing certificate's URL, and
// signatures of both versions verified (and refused when tampered with) against a test key.

#include <gtest/gtest.h>

#include "aws/sns_signer.hpp"
#include "files.hpp"
#include "server_process.hpp"
#include "source/sns_message.hpp"

using namespace ganglion;

namespace {

class sns_message_test : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir = new std::string(test::temp_dir());
    test::write_self_signed_certificate(*dir);
  }
  static std::string cert() { return test::read_file(*dir + "/cert.pem"); }
  static std::string key() { return test::read_file(*dir + "/key.pem"); }

  static aws::sns_message parsed(const std::string& body) {
    std::string error;
    auto m = aws::parse_sns_message(body, error);
    EXPECT_TRUE(m) << error;
    return m.value_or(aws::sns_message{});
  }

  static std::map<std::string, std::string> notification() {
    return {{"Type", "Notification"},
            {"MessageId", "m-1"},
            {"TopicArn", "arn:aws:sns:us-east-1:1:t"},
            {"Subject", "hello"},
            {"Message", "{\"a\":1}"},
            {"Timestamp", "2024-01-01T00:00:00.000Z"},
            {"UnsubscribeURL", "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe"}};
  }

  static inline std::string* dir = nullptr;
  const std::string url = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem";
};

TEST_F(sns_message_test, the_string_to_sign_of_a_notification) {
  auto m = parsed(R"({"Type":"Notification","MessageId":"m","TopicArn":"t","Message":"x",)"
                  R"("Timestamp":"ts","Token":"ignored","SubscribeURL":"ignored"})");
  EXPECT_EQ(aws::sns_string_to_sign(m), "Message\nx\nMessageId\nm\nTimestamp\nts\nTopicArn\nt\n"
                                        "Type\nNotification\n");
  m.subject = "s";
  EXPECT_EQ(aws::sns_string_to_sign(m), "Message\nx\nMessageId\nm\nSubject\ns\nTimestamp\nts\n"
                                        "TopicArn\nt\nType\nNotification\n");
}

TEST_F(sns_message_test, the_string_to_sign_of_a_subscription_confirmation) {
  auto m = parsed(R"({"Type":"SubscriptionConfirmation","MessageId":"m","TopicArn":"t",)"
                  R"("Message":"x","Timestamp":"ts","Token":"tok","SubscribeURL":"u",)"
                  R"("Subject":"ignored"})");
  EXPECT_EQ(aws::sns_string_to_sign(m),
            "Message\nx\nMessageId\nm\nSubscribeURL\nu\nTimestamp\nts\nToken\ntok\nTopicArn\nt\n"
            "Type\nSubscriptionConfirmation\n");
}

TEST_F(sns_message_test, a_body_that_is_not_an_sns_delivery_is_an_error) {
  std::string error;
  EXPECT_FALSE(aws::parse_sns_message("[1]", error));
  EXPECT_FALSE(aws::parse_sns_message(R"({"Message":"x"})", error));
  EXPECT_EQ(error, "bad request, not a valid SNS notification");
}

TEST_F(sns_message_test, the_certificate_must_come_from_sns_over_https) {
  EXPECT_EQ(aws::sns_cert_url_problem(url, {}), "");
  EXPECT_EQ(aws::sns_cert_url_problem("https://sns.cn-north-1.amazonaws.com.cn/c.pem", {}), "");
  EXPECT_NE(aws::sns_cert_url_problem("http://sns.us-east-1.amazonaws.com/c.pem", {}), "");
  EXPECT_NE(aws::sns_cert_url_problem("https://evil.example/c.pem", {}), "");
  EXPECT_NE(aws::sns_cert_url_problem("https://sns.us-east-1.amazonaws.com.evil.example/c", {}),
            "");
  EXPECT_NE(aws::sns_cert_url_problem("https://x@sns.us-east-1.amazonaws.com/c", {}), "");
  EXPECT_NE(aws::sns_cert_url_problem("https://127.0.0.1:8443/c.pem", {}), "");
  EXPECT_EQ(aws::sns_cert_url_problem("https://127.0.0.1:8443/c.pem", {"127.0.0.1"}), "");
}

TEST_F(sns_message_test, both_signature_versions_verify) {
  for (int version : {1, 2}) {
    auto m = parsed(test::aws::signed_sns_message(notification(), key(), url, version));
    EXPECT_EQ(aws::sns_signature_problem(m, cert()), "") << "version " << version;
  }
  auto confirmation = parsed(test::aws::signed_sns_message(
    {{"Type", "SubscriptionConfirmation"}, {"MessageId", "m"}, {"Token", "tok"},
     {"TopicArn", "t"}, {"Message", "confirm"}, {"SubscribeURL", "https://x"},
     {"Timestamp", "ts"}},
    key(), url, 1));
  EXPECT_EQ(aws::sns_signature_problem(confirmation, cert()), "");
}

TEST_F(sns_message_test, a_tampered_or_unsigned_message_is_refused) {
  auto m = parsed(test::aws::signed_sns_message(notification(), key(), url, 1));
  auto tampered = m;
  tampered.message = "{\"a\":2}";
  EXPECT_EQ(aws::sns_signature_problem(tampered, cert()), "message signature check error");
  auto other_version = m;
  other_version.signature_version = "2";
  EXPECT_EQ(aws::sns_signature_problem(other_version, cert()), "message signature check error");
  auto unsigned_message = m;
  unsigned_message.signature.clear();
  EXPECT_EQ(aws::sns_signature_problem(unsigned_message, cert()), "the Signature is not base64");
  auto unknown = m;
  unknown.signature_version = "3";
  EXPECT_NE(aws::sns_signature_problem(unknown, cert()).find("not 1 or 2"), std::string::npos);
  EXPECT_EQ(aws::sns_signature_problem(m, "not a certificate"),
            "the signing certificate is not a PEM certificate");
}

} // namespace
