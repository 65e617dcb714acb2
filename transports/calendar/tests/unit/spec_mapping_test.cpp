// YAML → the calendar kind's model (spec.calendar.<event>): every Argo field lands in its
// struct field.

#include <gtest/gtest.h>

#include "ganglion/calendar/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace calendar = ganglion::calendar;
using namespace ganglion::dsl::testing;

TEST(calendar_spec_mapping, calendar_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  calendar:
    full:
      schedule: "30 * * * *"
      exclusionDates: ["EXDATE:20190102T150405Z"]
      timezone: America/New_York
      metadata: {hello: world}
      persistence:
        catchup: {enabled: true, maxDuration: 5m}
        configMap: {name: test-configmap, createIfNotExist: true}
      filter: {expression: "true"}
    plain:
      interval: 10s
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& c = event_spec<calendar::event_spec>(es, "calendar", "full");
  EXPECT_EQ(c.schedule, "30 * * * *");
  EXPECT_EQ(c.exclusion_dates, std::vector<std::string>{"EXDATE:20190102T150405Z"});
  EXPECT_EQ(c.timezone, "America/New_York");
  EXPECT_EQ(c.metadata.at("hello"), "world");
  ASSERT_TRUE(c.persistence);
  EXPECT_TRUE(c.persistence->catchup);
  EXPECT_EQ(c.persistence->catchup_max, "5m");
  EXPECT_EQ(c.persistence->config_map, "test-configmap");
  EXPECT_TRUE(c.persistence->create_if_not_exist);
  EXPECT_EQ(es.spec.find("calendar", "full")->filter->expression, "true");
  const auto& p = event_spec<calendar::event_spec>(es, "calendar", "plain");
  EXPECT_EQ(p.interval, "10s");
  EXPECT_EQ(p.schedule, "");
  EXPECT_FALSE(p.persistence);
  EXPECT_TRUE(p.metadata.empty());
}
