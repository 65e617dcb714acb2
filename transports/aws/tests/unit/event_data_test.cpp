// The sqs source's event data, byte for byte as Argo's json.Marshal of SQSEventData.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion;

namespace {

std::string data_of(const char* message, bool json_body,
                    const std::map<std::string, std::string>& metadata = {}) {
  std::string error;
  auto out = aws::sqs_event_data(nlohmann::json::parse(message), json_body, metadata, error);
  EXPECT_TRUE(out) << error;
  return out.value_or("");
}

} // namespace

TEST(aws_sqs_event_data, the_body_is_base64_bytes_without_json_body) {
  EXPECT_EQ(data_of(R"({"MessageId":"m-1","ReceiptHandle":"r","Body":"hi <there>"})", false),
            R"({"messageId":"m-1","messageAttributes":null,"body":"aGkgPHRoZXJlPg=="})");
}

TEST(aws_sqs_event_data, the_body_is_json_with_json_body_and_metadata_follows) {
  EXPECT_EQ(data_of(R"({"MessageId":"m","Body":"{ \"a\" : \"<b>\" }"})", true, {{"team", "x"}}),
            R"({"messageId":"m","messageAttributes":null,"body":{"a":"\u003cb\u003e"},)"
            R"("metadata":{"team":"x"}})");
}

TEST(aws_sqs_event_data, message_attributes_are_aws_sdk_values_sorted_by_name) {
  EXPECT_EQ(
    data_of(R"({"MessageId":"m","Body":"","MessageAttributes":{
      "z":{"DataType":"String","StringValue":"v"},
      "a":{"DataType":"Binary","BinaryValue":"AAEC"},
      "n":{"DataType":"Number","StringValue":"1"}}})",
            false),
    R"({"messageId":"m","messageAttributes":{)"
    R"("a":{"BinaryListValues":null,"BinaryValue":"AAEC","DataType":"Binary","StringListValues":null,"StringValue":null},)"
    R"("n":{"BinaryListValues":null,"BinaryValue":null,"DataType":"Number","StringListValues":null,"StringValue":"1"},)"
    R"("z":{"BinaryListValues":null,"BinaryValue":null,"DataType":"String","StringListValues":null,"StringValue":"v"}},)"
    R"("body":""})");
}

TEST(aws_sqs_event_data, a_body_that_is_not_json_is_an_error_with_json_body) {
  std::string error;
  auto out = aws::sqs_event_data(nlohmann::json::parse(R"({"MessageId":"m","Body":"nope"})"), true,
                                 {}, error);
  EXPECT_FALSE(out);
  EXPECT_NE(error.find("the message is not valid JSON"), std::string::npos) << error;
}
