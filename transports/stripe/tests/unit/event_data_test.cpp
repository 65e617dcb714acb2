// A Stripe event as Argo's stripe source re-marshals it (stripe-go v70.15's Event through
// json.Unmarshal and json.Marshal); the expected texts are what Go writes.

#include <gtest/gtest.h>

#include "source/event_data.hpp"

namespace ganglion::stripe::detail {
namespace {

std::string data_of(std::string_view body, std::map<std::string, std::string> metadata = {}) {
  std::string error;
  auto e = read_stripe_event(body, metadata, error);
  return e ? e->data : "<" + error + ">";
}

TEST(stripe_event_data, fields_in_go_order_other_keys_dropped_and_the_object_kept_raw) {
  constexpr const char* body = R"({
  "id": "evt_1", "object": "event", "api_version": "2020-08-27", "created": 1714565594,
  "data": {"object": {"id": "ch_1", "amount": 1.50, "b": 1, "a": "<x>"},
           "previous_attributes": {"z": 1e2, "a": [true]}},
  "livemode": false, "pending_webhooks": 2,
  "request": {"id": "req_1", "idempotency_key": "k"}, "type": "charge.succeeded"})";
  std::string error;
  auto e = read_stripe_event(body, {{"team", "billing"}}, error);
  ASSERT_TRUE(e) << error;
  EXPECT_EQ(e->type, "charge.succeeded");
  EXPECT_EQ(e->data,
            R"({"event":{"account":"","created":1714565594,"data":{"previous_attributes":)"
            R"({"a":[true],"z":100},"object":{"id":"ch_1","amount":1.50,"b":1,"a":"\u003cx\u003e"}},)"
            R"("id":"evt_1","livemode":false,"pending_webhooks":2,"request":{"id":"req_1",)"
            R"("idempotency_key":"k"},"type":"charge.succeeded"},"metadata":{"team":"billing"}})");
}

TEST(stripe_event_data, missing_and_null_fields_are_gos_zero_values) {
  EXPECT_EQ(data_of(R"({"type":"x","request":null,"data":null,"account":null})"),
            R"({"event":{"account":"","created":0,"data":null,"id":"","livemode":false,)"
            R"("pending_webhooks":0,"request":null,"type":"x"}})");
  EXPECT_EQ(data_of(R"({"data":{"object":null},"request":{}})"),
            R"({"event":{"account":"","created":0,"data":{"previous_attributes":null,)"
            R"("object":null},"id":"","livemode":false,"pending_webhooks":0,)"
            R"("request":{"id":"","idempotency_key":""},"type":""}})");
}

TEST(stripe_event_data, keys_match_case_insensitively_and_the_last_duplicate_wins) {
  EXPECT_EQ(data_of(R"({"TYPE":"a","type":"b","Id":"evt","id":null})"),
            R"({"event":{"account":"","created":0,"data":null,"id":"evt","livemode":false,)"
            R"("pending_webhooks":0,"request":null,"type":"b"}})");
}

TEST(stripe_event_data, a_null_body_is_a_null_event) {
  std::string error;
  auto e = read_stripe_event("null", {}, error);
  ASSERT_TRUE(e) << error;
  EXPECT_FALSE(e->present);
  EXPECT_EQ(e->data, R"({"event":null})");
}

TEST(stripe_event_data, what_go_cannot_unmarshal_is_refused_with_its_reason) {
  EXPECT_EQ(data_of(""), "<unexpected end of JSON input>");
  EXPECT_EQ(data_of("[1]"), "<json: cannot unmarshal array into Go value of type stripe.Event>");
  EXPECT_EQ(data_of(R"({"created":"1"})"),
            "<json: cannot unmarshal string into Go struct field Event.created of type int64>");
  EXPECT_EQ(data_of(R"({"created":1.5})"),
            "<json: cannot unmarshal number into Go struct field Event.created of type int64>");
  EXPECT_EQ(data_of(R"({"livemode":"yes"})"),
            "<json: cannot unmarshal string into Go struct field Event.livemode of type bool>");
  EXPECT_EQ(data_of(R"({"request":"req_1"})"),
            "<json: cannot unmarshal string into Go struct field Event.request of type "
            "stripe.EventRequest>");
  EXPECT_EQ(data_of(R"({"data":{}})"), "<unexpected end of JSON input>");
  EXPECT_EQ(data_of(R"({"data":{"object":[1]}})"),
            "<json: cannot unmarshal array into Go value of type map[string]interface {}>");
  EXPECT_EQ(data_of(R"({"data":{"object":{},"previous_attributes":"x"}})"),
            "<json: cannot unmarshal string into Go value of type map[string]interface {}>");
  EXPECT_NE(data_of(R"({"id":"evt", "x": tru})").find("<invalid JSON"), std::string::npos);
}

} // namespace
} // namespace ganglion::stripe::detail
