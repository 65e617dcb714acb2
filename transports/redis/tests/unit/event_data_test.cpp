// The bytes of redis and redisStream event data: what Go's json.Marshal writes for Argo's
// RedisEventData and RedisStreamEventData.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion::redis;

TEST(redis_event_data, body_is_a_go_string_and_metadata_is_sorted) {
  std::string error;
  auto data = pubsub_event_data("ch", "", "a<b>&\"\n\xff", false, {{"z", "1"}, {"a", "2"}}, error);
  ASSERT_TRUE(data);
  EXPECT_EQ(*data, R"({"channel":"ch","pattern":"","body":"a\u003cb\u003e\u0026\"\n\ufffd",)"
                   R"("metadata":{"a":"2","z":"1"}})");
}

TEST(redis_event_data, metadata_is_left_out_when_empty) {
  std::string error;
  EXPECT_EQ(*pubsub_event_data("ch", "p*", "", false, {}, error),
            R"({"channel":"ch","pattern":"p*","body":""})");
}

TEST(redis_event_data, json_body_is_compacted_raw_json) {
  std::string error;
  EXPECT_EQ(*pubsub_event_data("ch", "", "{ \"a\" : [1, \"<\"] }", true, {}, error),
            R"({"channel":"ch","pattern":"","body":{"a":[1,"\u003c"]}})");
}

TEST(redis_event_data, json_body_refuses_what_is_not_json) {
  std::string error;
  EXPECT_FALSE(pubsub_event_data("ch", "", "{", true, {}, error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  EXPECT_FALSE(pubsub_event_data("ch", "", "", true, {}, error));
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
}

TEST(redis_stream_event_data, values_are_a_sorted_object) {
  EXPECT_EQ(stream_event_data("s", "1-0", std::map<std::string, std::string>{{"b", "2"}, {"a", "&"}},
                              {{"k", "v"}}),
            R"({"stream":"s","message_id":"1-0","values":{"a":"\u0026","b":"2"},)"
            R"("metadata":{"k":"v"}})");
}

TEST(redis_stream_event_data, an_entry_without_values_has_null) {
  EXPECT_EQ(stream_event_data("s", "1-0", std::nullopt, {}),
            R"({"stream":"s","message_id":"1-0","values":null})");
}
