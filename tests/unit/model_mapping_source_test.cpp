// YAML → model for EventSources and EventBuses: the source events as JSON with their filter (each
// kind's own model: transports/<kind>/tests/unit/spec_mapping_test.cpp), and the EventBus.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(model_mapping_source, source_events_keep_their_spec_as_typed_json_beside_the_model) {
  auto c = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: cal}
spec:
  calendar:
    tick:
      schedule: "*/5 * * * *"
      exclusionDates: ["EXDATE:20190102T150405Z"]
      timezone: America/New_York
      metadata: {k: v}
      persistence:
        catchup: {enabled: true, maxDuration: 5m}
        configMap: {name: cm, createIfNotExist: true}
)");
  ASSERT_TRUE(clean(c));
  const auto* tick = only<event_source>(c).spec.find("calendar", "tick");
  ASSERT_TRUE(tick);
  EXPECT_TRUE(tick->spec.has_value()); // the calendar kind's model (its spec_mapping_test)
  auto cal = nlohmann::json::parse(tick->json);
  EXPECT_EQ(cal["schedule"], "*/5 * * * *");
  EXPECT_EQ(cal["exclusionDates"], nlohmann::json::array({"EXDATE:20190102T150405Z"}));
  EXPECT_EQ(cal["timezone"], "America/New_York");
  EXPECT_EQ(cal["metadata"]["k"], "v");
  EXPECT_EQ(cal["persistence"]["catchup"]["enabled"], true);
  EXPECT_EQ(cal["persistence"]["catchup"]["maxDuration"], "5m");
  EXPECT_EQ(cal["persistence"]["configMap"]["name"], "cm");
}



TEST(model_mapping_source, events_of_kinds_not_run_keep_their_spec_as_schema_typed_json) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: k}
spec:
  emitter:
    first:
      broker: broker:8080
      channelKey: key
      channelName: 10
      connectionBackoff: {steps: 2}
      metadata: {n: 1}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  ASSERT_EQ(es.spec.events.size(), 1u);
  const auto& e = es.spec.events[0];
  EXPECT_FALSE(e.spec.has_value());
  EXPECT_EQ(e.type, "emitter");
  EXPECT_EQ(e.name, "first");
  auto json = nlohmann::json::parse(e.json);
  EXPECT_EQ(json["channelName"], "10"); // a string field stays a string
  EXPECT_EQ(json["connectionBackoff"]["steps"], 2);
  EXPECT_EQ(json["metadata"]["n"], "1");
}

TEST(model_mapping_source, event_bus_records_its_type_and_spec) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata: {name: default}
spec:
  jetstream:
    version: latest
    replicas: 3
    streamConfig: |
      maxAge: 24h
)");
  const auto& bus = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(bus.metadata.name, "default");
  EXPECT_EQ(bus.spec.type, "jetstream");
  auto json = nlohmann::json::parse(bus.spec.json);
  EXPECT_EQ(json["version"], "latest");
  EXPECT_EQ(json["replicas"], 3);
  EXPECT_EQ(json["streamConfig"], "maxAge: 24h\n");
}
