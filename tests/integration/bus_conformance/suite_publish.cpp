// The conformance suite, publishing: what `done(accepted)` means, what a subscription gets and
// in which order, and back-pressure. Every bus driver passes it (bus_driver.hpp).

#include <string>
#include <vector>

#include "bus_driver.hpp"
#include "bus_probe.hpp"

namespace ganglion::test::bus_conformance {
namespace {

using core::publish_status;

TEST_P(bus_conformance, a_subscription_gets_each_event_of_its_sources_as_published_in_order) {
  auto bus = driver().open("r1");
  inbox got;
  auto sub = bus->subscribe("s", {{"es", "a"}, {"es", "b"}}, got.handler());
  std::vector<core::event> published;
  for (int i = 0; i < 20; ++i) {
    auto e = make_event("es", i % 2 ? "a" : "b", "e" + std::to_string(i));
    published.push_back(e);
    ASSERT_EQ(publish(*bus, e), publish_status::accepted) << e.id;
    // Not the sensor's: another subject of its source, and its subject of another source.
    ASSERT_EQ(publish(*bus, make_event("es", "c", "other-subject-" + std::to_string(i))),
              publish_status::accepted);
    ASSERT_EQ(publish(*bus, make_event("other", "a", "other-source-" + std::to_string(i))),
              publish_status::accepted);
  }
  ASSERT_EQ(publish(*bus, make_event("es", "a", "last")), publish_status::accepted);
  // Events of one (source, subject) come in order; the two subjects may take different ways.
  ASSERT_TRUE(test::eventually([&] { return got.events().size() >= published.size() + 1; }))
    << ::testing::PrintToString(got.ids());
  ASSERT_TRUE(got.wait_for("last"));
  auto events = got.events();
  ASSERT_EQ(events.size(), published.size() + 1) << ::testing::PrintToString(got.ids());
  std::set<std::uint64_t> sequences;
  // Per (source, subject) in publish order; every event exactly as published.
  for (const char* subject : {"a", "b"}) {
    std::vector<std::string> want, have;
    for (auto& e : published)
      if (e.subject == subject)
        want.push_back(e.id);
    for (auto& e : events)
      if (e->subject == subject && e->id != "last")
        have.push_back(e->id);
    EXPECT_EQ(have, want) << subject;
  }
  for (auto& e : events) {
    sequences.insert(e->sequence);
    EXPECT_NE(e->sequence, 0u) << e->id;
    if (e->id == "last")
      continue;
    auto it = std::find_if(published.begin(), published.end(),
                           [&](const core::event& p) { return p.id == e->id; });
    ASSERT_NE(it, published.end()) << e->id;
    EXPECT_TRUE(same_event(*e, *it)) << e->id << ": changed on the way";
  }
  EXPECT_EQ(sequences.size(), events.size()) << "sequences are unique within a subscription";
}

TEST_P(bus_conformance, a_new_subscription_starts_with_the_events_published_after_it) {
  auto bus = driver().open("r1");
  ASSERT_EQ(publish(*bus, make_event("es", "a", "before")), publish_status::accepted);
  inbox got;
  auto sub = bus->subscribe("fresh", {{"es", "a"}}, got.handler());
  ASSERT_EQ(publish(*bus, make_event("es", "a", "after")), publish_status::accepted);
  // "before" is earlier in the same order: had it been coming, it would have come first.
  ASSERT_TRUE(got.wait_for("after"));
  EXPECT_EQ(got.ids(), (std::vector<std::string>{"after"}));
}

// `done(accepted)` comes once the bus stored the event: the replica that published it may
// die (its bus destroyed without close) and the sensor, subscribed again, still gets it.
TEST_P(bus_conformance, an_accepted_event_survives_the_publisher) {
  auto bus = driver().open("r1");
  {
    inbox none;
    bus->subscribe("s", {{"es", "a"}}, none.handler()); // the sensor's position exists
  }
  std::vector<std::string> ids;
  for (int i = 0; i < 10; ++i) {
    ids.push_back("kept-" + std::to_string(i));
    ASSERT_EQ(publish(*bus, make_event("es", "a", ids.back())), publish_status::accepted);
  }
  bus.reset();
  auto again = driver().open("r1");
  inbox got;
  auto sub = again->subscribe("s", {{"es", "a"}}, got.handler());
  ASSERT_TRUE(got.wait_for(ids.back()));
  EXPECT_EQ(got.ids(), ids);
}

// Past its window a bus refuses (`saturated`) or waits a bounded time; every publish gets
// exactly one outcome, and every accepted one is delivered: nothing is dropped silently.
TEST_P(bus_conformance, publishing_past_the_window_is_refused_never_dropped) {
  constexpr std::size_t window = 4;
  auto bus = driver().open("r1", window);
  inbox got; // acknowledges nothing: on the embedded bus it holds the events alive
  auto sub = bus->subscribe("s", {{"es", "a"}}, got.handler());
  driver().stall();
  outcomes o;
  for (std::size_t i = 0; i < window; ++i)
    o.publish(*bus, make_event("es", "a", "in-window-" + std::to_string(i)));
  // A refusal comes at once, or after a bounded wait (JetStream's stall wait, 20 ms).
  o.publish(*bus, make_event("es", "a", "past-window"));
  EXPECT_EQ(o.wait("past-window", 5s), publish_status::saturated);
  for (std::size_t i = 0; i < window; ++i) {
    auto id = "in-window-" + std::to_string(i);
    EXPECT_NE(o.of(id), publish_status::saturated) << id << " was within the window";
  }
  driver().resume();
  for (std::size_t i = 0; i < window; ++i) {
    auto id = "in-window-" + std::to_string(i);
    EXPECT_TRUE(o.wait(id, 30s).has_value()) << id << ": no outcome";
  }
  auto all_delivered = [&](const std::set<std::string>& ids) {
    auto delivered = got.ids();
    return std::all_of(ids.begin(), ids.end(), [&](const std::string& id) {
      return std::find(delivered.begin(), delivered.end(), id) != delivered.end();
    });
  };
  ASSERT_TRUE(test::eventually([&] { return all_delivered(o.with(publish_status::accepted)); }))
    << "an accepted event was not delivered: " << ::testing::PrintToString(got.ids());
  // Free the window (the embedded bus counts events until acknowledged), then publish again.
  auto delivered = got.ids();
  sub->acknowledge(got.sequences_of({delivered.begin(), delivered.end()}));
  int attempt = 0;
  ASSERT_TRUE(test::eventually(
    [&] {
      auto id = "after-" + std::to_string(attempt++);
      o.publish(*bus, make_event("es", "a", id));
      return o.wait(id) == publish_status::accepted;
    },
    30s))
    << "no publish accepted after the stall ended";
  ASSERT_TRUE(test::eventually([&] { return all_delivered(o.with(publish_status::accepted)); }))
    << "an accepted event was not delivered: " << ::testing::PrintToString(got.ids());
  EXPECT_TRUE(o.repeated().empty()) << ::testing::PrintToString(o.repeated());
}

TEST_P(bus_conformance, a_closed_bus_refuses_publishes) {
  auto bus = driver().open("r1");
  ASSERT_EQ(publish(*bus, make_event("es", "a", "open")), publish_status::accepted);
  bus->close(1s);
  EXPECT_EQ(publish(*bus, make_event("es", "a", "closed")), publish_status::stopped);
}

} // namespace
} // namespace ganglion::test::bus_conformance
