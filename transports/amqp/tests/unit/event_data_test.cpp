// The bytes of an amqp event's data: Argo's AMQPEventData as Go's encoding/json writes it.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion::amqp;

TEST(amqp_event_data, every_property_in_argos_field_order) {
  message_fields f;
  f.content_type = "text/plain";
  f.content_encoding = "gzip";
  f.delivery_mode = 2;
  f.priority = 9;
  f.correlation_id = "c";
  f.reply_to = "r";
  f.expiration = "1000";
  f.message_id = "m&1";
  f.timestamp = 0;
  f.type = "t";
  f.app_id = "a";
  f.exchange = "x";
  f.routing_key = "k.<1>";
  std::string error;
  auto data = amqp_event_data(f, "hi", false, {{"b", "2"}, {"a", "1"}}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"contentType":"text/plain","contentEncoding":"gzip","deliveryMode":2,)"
                   R"("priority":9,"correlationId":"c","replyTo":"r","expiration":"1000",)"
                   R"("messageId":"m\u00261","timestamp":"1970-01-01 00:00:00 +0000 UTC",)"
                   R"("type":"t","appId":"a","exchange":"x","routingKey":"k.\u003c1\u003e",)"
                   R"("body":"aGk=","metadata":{"a":"1","b":"2"}})");
}

TEST(amqp_event_data, json_body_is_compacted_and_invalid_json_is_an_error) {
  std::string error;
  auto data = amqp_event_data({}, "{ \"a\" : [1, 2] }\n", true, {}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_NE(data->find(R"("body":{"a":[1,2]})"), std::string::npos) << *data;
  EXPECT_EQ(data->find("metadata"), std::string::npos);
  EXPECT_FALSE(amqp_event_data({}, "{", true, {}, error));
  EXPECT_FALSE(amqp_event_data({}, "", true, {}, error));
  // Without jsonBody an empty body is Go's empty []byte: "".
  EXPECT_NE(amqp_event_data({}, "", false, {}, error)->find(R"("body":"")"), std::string::npos);
}

TEST(amqp_event_data, timestamps_print_as_go_time_string_in_utc) {
  EXPECT_EQ(go_time_string(std::nullopt), "0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_time_string(1700000000), "2023-11-14 22:13:20 +0000 UTC");
  EXPECT_EQ(go_time_string(951782400), "2000-02-29 00:00:00 +0000 UTC");
  EXPECT_EQ(go_time_string(-1), "1969-12-31 23:59:59 +0000 UTC");
  EXPECT_EQ(go_time_string(253402300800), "10000-01-01 00:00:00 +0000 UTC");
}
