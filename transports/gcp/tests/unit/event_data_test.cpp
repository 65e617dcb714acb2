// The bytes of pubSub event data (what Go's json.Marshal writes for Argo's PubSubEventData),
// the publish time as Go's time.Time.String(), and the subscription ID Argo derives.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

using namespace ganglion::gcp;
using namespace ganglion::gcp::detail;

namespace {

received_message message(std::string data, std::map<std::string, std::string> attributes = {}) {
  return {"ack-1", "42", std::move(data), "2024-05-01T10:20:30.123Z", std::move(attributes)};
}

} // namespace

TEST(gcp_event_data, body_is_base64_attributes_sorted_metadata_last) {
  std::string error;
  auto data = pubsub_event_data(message("hi<\xff", {{"z", "1"}, {"a", "<&>"}}), false,
                                {{"team", "x"}}, error);
  ASSERT_TRUE(data) << error;
  EXPECT_EQ(*data, R"({"id":"42","body":"aGk8/w==","attributes":{"a":"\u003c\u0026\u003e",)"
                   R"("z":"1"},"publishTime":"2024-05-01 10:20:30.123 +0000 UTC",)"
                   R"("metadata":{"team":"x"}})");
}

TEST(gcp_event_data, no_attributes_is_null_and_no_data_is_a_null_body) {
  std::string error;
  EXPECT_EQ(*pubsub_event_data(message(""), false, {}, error),
            R"({"id":"42","body":null,"attributes":null,)"
            R"("publishTime":"2024-05-01 10:20:30.123 +0000 UTC"})");
  EXPECT_EQ(*pubsub_event_data(message(""), true, {}, error),
            R"({"id":"42","body":null,"attributes":null,)"
            R"("publishTime":"2024-05-01 10:20:30.123 +0000 UTC"})");
}

TEST(gcp_event_data, json_body_is_compacted_raw_json_and_not_json_is_an_error) {
  std::string error;
  EXPECT_EQ(*pubsub_event_data(message("{ \"a\" : [1, \"<\"] }"), true, {}, error),
            R"({"id":"42","body":{"a":[1,"\u003c"]},"attributes":null,)"
            R"("publishTime":"2024-05-01 10:20:30.123 +0000 UTC"})");
  EXPECT_FALSE(pubsub_event_data(message("not json"), true, {}, error));
  EXPECT_NE(error.find("the message is not valid JSON"), std::string::npos) << error;
}

TEST(gcp_event_data, publish_time_is_go_time_string_in_utc) {
  EXPECT_EQ(go_publish_time("2024-05-01T10:20:30Z"), "2024-05-01 10:20:30 +0000 UTC");
  EXPECT_EQ(go_publish_time("2024-05-01T10:20:30.120000Z"), "2024-05-01 10:20:30.12 +0000 UTC");
  EXPECT_EQ(go_publish_time("2024-05-01T10:20:30.123456789Z"),
            "2024-05-01 10:20:30.123456789 +0000 UTC");
  EXPECT_EQ(go_publish_time("2024-05-01T12:20:30.5+02:00"), "2024-05-01 10:20:30.5 +0000 UTC");
  EXPECT_EQ(go_publish_time(""), "0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_publish_time("2024-13-01T10:20:30Z"), "0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(go_publish_time("2024-05-01T10:20:30.Z"), "0001-01-01 00:00:00 +0000 UTC");
}

TEST(gcp_subscription_id, given_id_is_used_as_is) {
  event_spec s;
  s.project_id = "p1";
  s.subscription_id = "mine";
  EXPECT_EQ(subscription_id(s, "ev", std::nullopt), "mine");
}

// The expected hashes are FNV-1a 32 of the event name followed by Go's json.Marshal of the
// PubSubEventSource after fillDefault, computed outside ganglion.
TEST(gcp_subscription_id, derived_id_is_argos_fnv32a_of_the_event_and_its_json) {
  event_spec bare;
  bare.project_id = "p1";
  // {"projectID":"p1","topicProjectID":"","topic":"","subscriptionID":""}
  EXPECT_EQ(subscription_id(bare, "ev", std::nullopt), "ev-80975209");

  event_spec s;
  s.project_id = "p1";
  s.topic_project_id = "tp";
  s.topic = "t";
  s.delete_subscription_on_finish = true;
  EXPECT_EQ(subscription_id(s, "ev", std::nullopt), "ev-365669715");

  event_spec full;
  full.project_id = "my-project";
  full.topic = "orders"; // topicProjectID defaults to projectID before hashing
  full.credential_secret = ganglion::dsl::secret_key_selector{"gcp", "key.json"};
  full.json_body = true;
  full.metadata = {{"a", "1"}};
  EXPECT_EQ(subscription_id(full, "example", std::string{"body.x > 1"}), "example-4254562609");
}
