// The at-least-once bookkeeping of a durable sensor, on a real log and store in a temp dir:
// what a restart delivers again, and what it must not.

#include <gtest/gtest.h>

#include <future>

#include "storage/cursor_board.hpp"
#include "files.hpp"
#include "sensor/sensor_ledger.hpp"

namespace ganglion::core {
namespace {

using namespace std::chrono_literals;

/// A data directory with a log; sensors of the "same process" share it.
struct data_dir {
  std::string path = test::temp_dir();
  std::shared_ptr<event_log> log;
  std::shared_ptr<cursor_board> cursors;

  data_dir() { open(); }

  void open() {
    event_log_options options;
    options.directory = path + "/log";
    log = std::make_shared<event_log>(options);
    cursors = std::make_shared<cursor_board>(log);
  }

  /// Simulates a restart: the log is closed and opened again.
  void reopen() {
    cursors.reset();
    log.reset();
    open();
  }

  sensor_durability durability() const {
    sensor_durability d;
    d.directory = path + "/sensors/s";
    d.fsync = fsync_policy::never;
    d.log = log;
    d.cursors = cursors;
    return d;
  }

  /// Appends an event and waits until it is durable; returns it with its sequence.
  event_ptr publish(const std::string& id) {
    event e;
    e.id = id;
    e.source = "es";
    e.subject = "a";
    e.data = "{}";
    std::promise<event> stored;
    log->append(std::move(e), [&](event&& done, const std::string*) { stored.set_value(done); });
    return std::make_shared<const event>(stored.get_future().get());
  }
};

std::vector<std::string> recover(sensor_ledger& ledger, dedup_window& dedup,
                                 std::vector<event_ptr>* kept = nullptr) {
  std::vector<std::string> ids;
  ledger.recover(dedup, [&](const event_ptr& e) {
    ids.push_back(e->id);
    if (kept)
      kept->push_back(e);
  });
  return ids;
}

} // namespace

TEST(sensor_ledger, a_new_sensor_starts_after_the_events_already_in_the_log) {
  data_dir dir;
  dir.publish("before");
  sensor_ledger ledger{"s", dir.durability()};
  dedup_window dedup{0ms, 16};
  EXPECT_TRUE(recover(ledger, dedup).empty());
}

TEST(sensor_ledger, a_new_sensor_reads_what_was_published_since_the_engine_planned_it) {
  data_dir dir;
  dir.publish("before the plan");
  auto durability = dir.durability();
  durability.fresh_start = dir.log->next_sequence(); // as engine::impl::durability_of does
  // A source of the same plan publishes before the sensor recovers and subscribes.
  dir.publish("catch-up tick");
  sensor_ledger ledger{"s", durability};
  dedup_window dedup{0ms, 16};
  EXPECT_EQ(recover(ledger, dedup), std::vector<std::string>{"catch-up tick"});
}

TEST(sensor_ledger, a_restart_delivers_again_only_what_was_not_finished) {
  data_dir dir;
  dedup_window dedup{60000ms, 1024};
  {
    sensor_ledger ledger{"s", dir.durability()};
    recover(ledger, dedup);
    auto done = dir.publish("done");
    auto held = dir.publish("held");
    auto unseen = dir.publish("unseen"); // in the log, never delivered before the crash
    (void)unseen;
    auto a = ledger.admit(done);
    auto b = ledger.admit(held);
    ASSERT_TRUE(a && b);
    a.reset(); // finished: nothing holds it
    ledger.commit();
    // `b` is still held (a join, an execution) when the process dies.
  }
  dir.reopen();
  sensor_ledger ledger{"s", dir.durability()};
  dedup_window restored{60000ms, 1024};
  EXPECT_EQ(recover(ledger, restored), (std::vector<std::string>{"held", "unseen"}));
  // The finished id is remembered across the restart.
  EXPECT_TRUE(restored.seen_before("done", dedup_window::clock::now()));
  EXPECT_FALSE(restored.seen_before("held", dedup_window::clock::now()));
}

TEST(sensor_ledger, an_unfinished_event_below_the_cursor_survives_in_the_snapshot) {
  data_dir dir;
  dedup_window dedup{0ms, 16};
  event_ptr held;
  {
    sensor_ledger ledger{"s", dir.durability()};
    recover(ledger, dedup);
    held = ledger.admit(dir.publish("held"));
    ledger.admit(dir.publish("finished")).reset();
    ledger.commit(true); // the cursor moves past both; `held` goes into the snapshot
  }
  dir.reopen();
  sensor_ledger ledger{"s", dir.durability()};
  EXPECT_EQ(recover(ledger, dedup), (std::vector<std::string>{"held"}));
}

TEST(sensor_ledger, events_redelivered_by_the_bus_after_recovery_are_skipped) {
  data_dir dir;
  dedup_window dedup{0ms, 16};
  {
    sensor_ledger ledger{"s", dir.durability()};
    recover(ledger, dedup);
    auto pending = ledger.admit(dir.publish("x"));
    ledger.commit();
  }
  dir.reopen();
  sensor_ledger ledger{"s", dir.durability()};
  std::vector<event_ptr> replayed;
  ASSERT_EQ(recover(ledger, dedup, &replayed).size(), 1u);
  // The bus may deliver the same stored event again: it was just replayed.
  auto again = std::make_shared<const event>(*replayed.front());
  EXPECT_EQ(ledger.admit(again), nullptr);
  // A later one is admitted.
  EXPECT_NE(ledger.admit(dir.publish("y")), nullptr);
}

TEST(sensor_ledger, a_trigger_that_gives_up_keeps_its_events_unfinished) {
  data_dir dir;
  dedup_window dedup{0ms, 16};
  {
    sensor_ledger ledger{"s", dir.durability()};
    recover(ledger, dedup);
    auto e = ledger.admit(dir.publish("failed"));
    ledger.kept()->keep({{"d", e}});
    e.reset();
    ledger.commit(true);
    EXPECT_EQ(ledger.unfinished(), 1u);
  }
  dir.reopen();
  sensor_ledger ledger{"s", dir.durability()};
  EXPECT_EQ(recover(ledger, dedup), (std::vector<std::string>{"failed"}));
}

TEST(sensor_ledger, release_gives_an_at_most_once_trigger_the_event_without_the_hold) {
  data_dir dir;
  dedup_window dedup{0ms, 16};
  sensor_ledger ledger{"s", dir.durability()};
  recover(ledger, dedup);
  auto original = dir.publish("x");
  auto handle = ledger.admit(original);
  std::map<std::string, event_ptr> events{{"d", handle}};
  handle.reset();
  ledger.release(events);
  EXPECT_EQ(events.at("d"), original);
  ledger.commit();
  EXPECT_EQ(ledger.unfinished(), 0u);
}

} // namespace ganglion::core
