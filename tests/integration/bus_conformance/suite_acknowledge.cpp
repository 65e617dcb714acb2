// The conformance suite, acknowledgement: an acknowledged event is not delivered again, an
// unacknowledged one is, once its subscription is dropped and made again (on the same replica
// or, where the driver has replicas, on another). Every bus driver passes it (bus_driver.hpp).

#include <set>
#include <string>
#include <vector>

#include "bus_driver.hpp"
#include "bus_probe.hpp"

namespace ganglion::test::bus_conformance {
namespace {

using core::publish_status;

/// Where the sensor subscribes again.
enum class next_subscription {
  same_bus,      ///< on the same replica's bus
  restarted_bus, ///< on the same replica after its bus was destroyed and opened again
  other_replica, ///< on another replica's bus
};

/// Publishes e1…e5 to a subscription of sensor `s` on replica r1, acknowledges e1, e2 and e4,
/// drops the subscription and subscribes `s` again where `next` says: e3 and e5 come again
/// (with their sequences), the others do not.
void redelivery(bus_driver& driver, next_subscription next) {
  auto first = driver.open("r1");
  inbox before;
  auto sub = first->subscribe("s", {{"es", "a"}}, before.handler());
  for (int i = 1; i <= 5; ++i)
    ASSERT_EQ(publish(*first, make_event("es", "a", "e" + std::to_string(i))),
              publish_status::accepted);
  ASSERT_TRUE(before.wait_for("e5"));
  auto acked = before.sequences_of({"e1", "e2", "e4"});
  ASSERT_EQ(acked.size(), 3u);
  sub->acknowledge(acked);
  sub->acknowledge(acked); // twice is harmless
  auto kept = before.events();
  sub.reset(); // the sensor stops, or its replica dies, holding e3 and e5

  std::shared_ptr<core::remote_bus> second;
  if (next == next_subscription::restarted_bus) {
    first.reset();
    second = driver.open("r1");
  } else {
    second = next == next_subscription::other_replica ? driver.open("r2") : first;
  }
  inbox after;
  auto again = second->subscribe("s", {{"es", "a"}}, after.handler());
  ASSERT_EQ(publish(*second, make_event("es", "a", "e6")), publish_status::accepted);
  // Every driver delivers again in sequence order (JetStream redelivers what expired sorted;
  // Kafka and the embedded log resume from the first unacknowledged event): an acknowledged
  // event that were coming again would come before e5.
  ASSERT_TRUE(after.wait_for("e3")) << "e3, never acknowledged, was not delivered again";
  ASSERT_TRUE(after.wait_for("e5")) << "e5, never acknowledged, was not delivered again";
  ASSERT_TRUE(after.wait_for("e6"));
  std::set<std::string> got;
  for (auto& e : after.events()) {
    got.insert(e->id);
    for (auto& k : kept) {
      if (k->id == e->id) {
        EXPECT_EQ(e->sequence, k->sequence) << e->id << " came again with another sequence";
      }
    }
  }
  EXPECT_EQ(got, (std::set<std::string>{"e3", "e5", "e6"}));
}

TEST_P(bus_conformance, unacknowledged_events_come_again_to_the_next_subscription) {
  redelivery(driver(), next_subscription::same_bus);
}

TEST_P(bus_conformance, unacknowledged_events_come_again_after_the_replica_restarts) {
  redelivery(driver(), next_subscription::restarted_bus);
}

TEST_P(bus_conformance, unacknowledged_events_go_to_another_replica) {
  GANGLION_REQUIRE(replicas);
  redelivery(driver(), next_subscription::other_replica);
}

TEST_P(bus_conformance, a_forgotten_sensor_starts_over_with_new_events) {
  auto bus = driver().open("r1");
  inbox gone_first, kept_first, gone_again, kept_again; // outlive the subscriptions
  auto gone = bus->subscribe("gone", {{"es", "a"}}, gone_first.handler());
  auto kept = bus->subscribe("kept", {{"es", "a"}}, kept_first.handler());
  ASSERT_EQ(publish(*bus, make_event("es", "a", "old")), publish_status::accepted);
  ASSERT_TRUE(gone_first.wait_for("old"));
  ASSERT_TRUE(kept_first.wait_for("old"));
  gone.reset(); // neither acknowledged "old"
  kept.reset();
  bus->forget("gone");
  gone = bus->subscribe("gone", {{"es", "a"}}, gone_again.handler());
  kept = bus->subscribe("kept", {{"es", "a"}}, kept_again.handler());
  ASSERT_EQ(publish(*bus, make_event("es", "a", "new")), publish_status::accepted);
  ASSERT_TRUE(gone_again.wait_for("new"));
  // The sensor not forgotten gets "old" again: by then the forgotten one would have too.
  ASSERT_TRUE(kept_again.wait_for("old"));
  EXPECT_EQ(gone_again.ids(), (std::vector<std::string>{"new"}));
}

} // namespace
} // namespace ganglion::test::bus_conformance
