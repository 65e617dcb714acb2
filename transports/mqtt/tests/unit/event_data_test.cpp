// The bytes of an mqtt event's data: Argo's MQTTEventData as Go's encoding/json writes it.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using ganglion::mqtt::mqtt_event_data;

TEST(mqtt_event_data, raw_body_is_base64_and_empty_metadata_is_left_out) {
  std::string error;
  auto data = mqtt_event_data("a/b", 0, std::string("\xff\x00<", 3), false, {}, error);
  ASSERT_TRUE(data);
  EXPECT_EQ(*data, R"({"topic":"a/b","messageId":0,"body":"/wA8"})");
}

TEST(mqtt_event_data, json_body_is_compacted_with_go_escapes_and_metadata_sorted) {
  std::string error;
  auto data = mqtt_event_data("t<&>", 7, "{ \"html\": \"<b>&\" ,\n \"n\": [1, 2.50] }", true,
                              {{"z", "1"}, {"a", "<"}}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"topic":"t\u003c\u0026\u003e","messageId":7,)"
                   R"("body":{"html":"\u003cb\u003e\u0026","n":[1,2.50]},)"
                   R"("metadata":{"a":"\u003c","z":"1"}})");
}

TEST(mqtt_event_data, json_body_that_is_not_json_or_empty_is_refused) {
  std::string error;
  EXPECT_FALSE(mqtt_event_data("t", 0, "{\"a\":", true, {}, error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  EXPECT_FALSE(mqtt_event_data("t", 0, "", true, {}, error));
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
}

TEST(mqtt_event_data, invalid_utf8_in_the_topic_becomes_the_replacement_character) {
  std::string error;
  auto data = mqtt_event_data("a\xc3", 0, "x", false, {}, error);
  ASSERT_TRUE(data);
  EXPECT_EQ(*data, R"({"topic":"a\ufffd","messageId":0,"body":"eA=="})");
}
