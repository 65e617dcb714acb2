// The EventBus document: the fingerprints a reload compares (the bus kinds' models and rules
// are tested with their transports: transports/{nats,kafka}/tests/unit/spec_bus_test.cpp).

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(model_event_bus, fingerprints_cover_the_bus_and_each_kafka_and_nats_event) {
  auto b = load(event_bus_yaml("  kafka: {url: k}\n"));
  const auto& fb = b.documents.at(0).fingerprints;
  ASSERT_EQ(fb.size(), 1u);
  EXPECT_EQ(fb.begin()->first, "eventbus");
  auto other = load(event_bus_yaml("  kafka: {url: k2}\n"));
  EXPECT_NE(fb.at("eventbus"), other.documents.at(0).fingerprints.at("eventbus"));

  const std::string es = "apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n"
                         "  name: es\nspec:\n  kafka:\n"
                         "    k: {url: a, topic: t, partition: \"0\"}\n"
                         "  nats:\n    n: {url: \"nats://n\", subject: s}\n";
  auto r = load(es);
  ASSERT_TRUE(clean(r));
  const auto& f = r.documents.at(0).fingerprints;
  EXPECT_TRUE(f.contains("event/k"));
  EXPECT_TRUE(f.contains("event/n"));
  EXPECT_TRUE(f.contains("eventsource"));
  auto changed = es;
  changed.replace(changed.find("subject: s"), 10, "subject: x");
  auto reloaded = load(changed);
  const auto& g = reloaded.documents.at(0).fingerprints;
  EXPECT_EQ(f.at("event/k"), g.at("event/k"));
  EXPECT_NE(f.at("event/n"), g.at("event/n"));
}
