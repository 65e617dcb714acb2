// The embedded bus: capacity in events and bytes, unrouted events, publish order. Publishers are real threads; the
// dispatcher and subscribers run on CAF's deterministic scheduler, so each check follows run().

#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "bus/embedded_bus.hpp"
#include "deterministic_system.hpp"
#include "runtime/messages.hpp"

using namespace ganglion::core;

namespace {

event make(std::string subject, std::size_t data_bytes = 2) {
  event e;
  e.id = new_event_id();
  e.source = "es";
  e.subject = std::move(subject);
  e.data = "\"" + std::string(data_bytes - 2, 'x') + "\"";
  return e;
}

struct holder_state {
  std::vector<event_ptr> held;
  static inline const char* name = "test.holder";
};

/// A subscriber that keeps every event it receives until told to let go (stop_atom).
caf::actor spawn_holder(caf::actor_system& sys) {
  return sys.spawn([](caf::stateful_actor<holder_state>* self) -> caf::behavior {
    return {
      [=](event_batch& batch) {
        for (auto& e : batch.events)
          self->state.held.push_back(e);
      },
      [=](stop_atom) { self->state.held.clear(); },
    };
  });
}

} // namespace

TEST(embedded_bus, refuses_past_capacity_until_events_are_released) {
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(2, metrics, work);
  EXPECT_EQ(bus->publish(make("a")), publish_status::accepted);
  EXPECT_EQ(bus->publish(make("a")), publish_status::accepted);
  EXPECT_EQ(bus->publish(make("a")), publish_status::saturated);
  EXPECT_EQ(bus->live(), 2u);

  ganglion::test::deterministic_system det;
  auto& sys = det.sys();
  auto holder = spawn_holder(sys);
  bus->subscribe("es", "a", holder);
  auto dispatcher = sys.spawn(bus_dispatcher, bus);
  det.run();
  ASSERT_EQ(bus->queued(), 0u);
  // Delivered but still referenced by the subscriber: still counted.
  EXPECT_EQ(bus->live(), 2u);
  EXPECT_EQ(bus->publish(make("a")), publish_status::saturated);
  caf::anon_send(holder, stop_atom::value);
  det.run();
  ASSERT_EQ(bus->live(), 0u);
  EXPECT_EQ(bus->publish(make("a")), publish_status::accepted);
  bus->close();
  EXPECT_EQ(bus->publish(make("a")), publish_status::stopped);
  caf::anon_send_exit(holder, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
}

TEST(embedded_bus, refuses_past_its_bytes_until_events_are_released) {
  constexpr std::size_t mib = 1 << 20;
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(1000, metrics, work, nullptr, 3 * mib);
  EXPECT_EQ(bus->publish(make("a", mib)), publish_status::accepted);
  EXPECT_EQ(bus->publish(make("a", mib)), publish_status::accepted);
  // Far below the 1,000 events, but a third MiB of data would pass the 3 MiB.
  EXPECT_EQ(bus->publish(make("a", mib)), publish_status::saturated);
  EXPECT_EQ(bus->live(), 2u);
  EXPECT_GT(bus->live_bytes(), 2 * mib);
  EXPECT_LT(bus->live_bytes(), 2 * mib + 1024);
  // Small events still fit beside them.
  EXPECT_EQ(bus->publish(make("a")), publish_status::accepted);

  ganglion::test::deterministic_system det;
  auto& sys = det.sys();
  auto holder = spawn_holder(sys);
  bus->subscribe("es", "a", holder);
  auto dispatcher = sys.spawn(bus_dispatcher, bus);
  det.run();
  EXPECT_EQ(bus->publish(make("a", mib)), publish_status::saturated);
  caf::anon_send(holder, stop_atom::value);
  det.run();
  ASSERT_EQ(bus->live(), 0u);
  EXPECT_EQ(bus->live_bytes(), 0u);
  EXPECT_EQ(bus->publish(make("a", mib)), publish_status::accepted);
  caf::anon_send_exit(holder, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
}

TEST(embedded_bus, an_event_larger_than_its_bytes_gets_into_an_empty_bus_only) {
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(1000, metrics, work, nullptr, 4096);
  EXPECT_EQ(bus->publish(make("a", 10000)), publish_status::accepted);
  EXPECT_EQ(bus->publish(make("a", 10000)), publish_status::saturated);
  EXPECT_EQ(bus->publish(make("a")), publish_status::saturated);
  EXPECT_EQ(bus->live(), 1u);
}

TEST(embedded_bus, unrouted_events_are_counted_and_released) {
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(8, metrics, work);
  ganglion::test::deterministic_system det;
  auto dispatcher = det.sys().spawn(bus_dispatcher, bus);
  EXPECT_EQ(bus->publish(make("nobody")), publish_status::accepted);
  det.run();
  ASSERT_EQ(bus->live(), 0u);
  EXPECT_EQ(work->pending(), 0);
  EXPECT_NE(metrics.render().find("ganglion_bus_events_unrouted_total 1"), std::string::npos);
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
}

// A subscriber that ended before its batch arrived (a sensor removed by a reload with events
// on the way) holds up no one: the batch's units go back to the work tracker, so the engine's
// idle wait and shutdown do not wait for it.
TEST(embedded_bus, a_batch_for_an_ended_subscriber_returns_its_work) {
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(8, metrics, work);
  ganglion::test::deterministic_system det;
  auto gone = det.sys().spawn([](caf::event_based_actor* self) -> caf::behavior {
    self->quit();
    return {[](event_batch&) {}};
  });
  det.run();
  bus->subscribe("es", "a", gone);
  auto dispatcher = det.sys().spawn(bus_dispatcher, bus);
  EXPECT_EQ(bus->publish(make("a")), publish_status::accepted);
  det.run();
  EXPECT_EQ(bus->live(), 0u);
  EXPECT_EQ(work->pending(), 0);
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
}

// Publishes from different threads, one after the other (as sequential requests on different
// io threads are), reach the subscriber in publish order, whatever sub-queue each one took.
TEST(embedded_bus, publishes_ordered_across_threads_arrive_in_that_order) {
  metrics_registry metrics;
  auto work = std::make_shared<work_tracker>();
  auto bus = std::make_shared<embedded_bus>(4096, metrics, work);
  constexpr int count = 2000;
  // Two threads take turns, each publish happening before the next; all before the dispatcher
  // exists, so one drain sees them all at once.
  std::atomic<int> turn{0};
  auto publisher = [&](int parity) {
    for (int i = parity; i < count; i += 2) {
      while (turn.load(std::memory_order_acquire) != i)
        std::this_thread::yield();
      auto e = make("a");
      e.id = std::to_string(i);
      EXPECT_EQ(bus->publish(std::move(e)), publish_status::accepted);
      turn.store(i + 1, std::memory_order_release);
    }
  };
  std::thread even(publisher, 0);
  std::thread odd(publisher, 1);
  even.join();
  odd.join();
  ganglion::test::deterministic_system det;
  auto& sys = det.sys();
  auto received = std::make_shared<std::vector<std::string>>();
  auto done = std::make_shared<std::atomic<int>>(0);
  auto subscriber = sys.spawn([received, done](caf::event_based_actor*) -> caf::behavior {
    return {
      [=](event_batch& batch) {
        for (auto& e : batch.events)
          received->push_back(e->id);
        done->fetch_add(static_cast<int>(batch.events.size()));
      },
    };
  });
  bus->subscribe("es", "a", subscriber);
  auto dispatcher = sys.spawn(bus_dispatcher, bus);
  det.run();
  ASSERT_EQ(done->load(), count);
  ASSERT_EQ(received->size(), static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    ASSERT_EQ((*received)[static_cast<std::size_t>(i)], std::to_string(i)) << "at " << i;
  caf::anon_send_exit(subscriber, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dispatcher, caf::exit_reason::user_shutdown);
}
