// engine::in_flight, engine::wait_idle and the ganglion_work_in_flight gauge: idle means every
// accepted event was judged and every firing it caused finished; an event held in a join does
// not keep the engine busy. On CAF's deterministic scheduler.

#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "core_engine_support.hpp"
#include "deterministic_engine.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// `now` fires on every a; `pair` on a and b.
std::string manifest() {
  return test::hooks_manifest({"a", "b"}, {{"now", "a"}, {"pair", "a && b"}});
}

/// Executions the test has not let finish yet, by trigger name.
struct held_executions {
  std::mutex mutex;
  std::vector<std::pair<std::string, core::trigger_done>> held;
  std::map<std::string, std::shared_ptr<core::bus_publisher>> publishers;

  std::size_t size() {
    std::lock_guard guard{mutex};
    return held.size();
  }

  /// Finishes every held execution; returns the names of their triggers.
  std::vector<std::string> release() {
    std::vector<std::pair<std::string, core::trigger_done>> taken;
    {
      std::lock_guard guard{mutex};
      taken.swap(held);
    }
    std::vector<std::string> names;
    for (auto& [name, done] : taken) {
      names.push_back(name);
      done(core::trigger_outcome{true, {}, "released"});
    }
    return names;
  }
};

/// Holds each execution until the test releases it.
class holding_executor : public core::trigger_executor {
public:
  holding_executor(std::shared_ptr<held_executions> held, std::string name)
    : held_(std::move(held)), name_(std::move(name)) {}

  void execute(const core::trigger_invocation&, core::trigger_done done) override {
    std::lock_guard guard{held_->mutex};
    held_->held.emplace_back(name_, std::move(done));
  }

private:
  std::shared_ptr<held_executions> held_;
  std::string name_;
};

/// A source that only hands its bus publisher to the test.
struct captured_source : core::source {};

core::source_registry capturing(std::shared_ptr<held_executions> held) {
  core::source_registry sources;
  sources["webhook"] = [h = held](const core::source_context& cx) {
    std::lock_guard guard{h->mutex};
    h->publishers[cx.event_name] = cx.bus;
    return std::make_unique<captured_source>();
  };
  return sources;
}

core::trigger_registry holding(std::shared_ptr<held_executions> held) {
  core::trigger_registry triggers;
  triggers["http"] =
    [h = held](const core::trigger_context& cx) -> std::unique_ptr<core::trigger_executor> {
    return std::make_unique<holding_executor>(h, cx.manifest->template_.name);
  };
  return triggers;
}

/// The engine on `manifest`, its webhook sources replaced by publishers the test uses, on
/// CAF's deterministic scheduler: after each step every actor has run, so the count in flight
/// is final and "not idle" is a fact, not a timeout.
struct engine_under_test {
  std::shared_ptr<held_executions> held = std::make_shared<held_executions>();
  test::deterministic_engine engine{core::engine_options{}, capturing(held), holding(held)};

  engine_under_test() {
    engine.start(manifest());
    EXPECT_TRUE(engine->ready()) << engine->status().to_json();
    for (const auto& c : engine->status().snapshot())
      EXPECT_EQ(c.phase, core::phase::running) << c.kind << " " << c.name;
  }

  ~engine_under_test() {
    held->release();
    engine.stop();
  }

  /// Publishes an event of `hooks/<event>` and runs; true once the bus accepted it.
  bool post(const std::string& event) {
    std::shared_ptr<core::bus_publisher> bus;
    {
      std::lock_guard guard{held->mutex};
      bus = held->publishers[event];
    }
    bool accepted = bus && test::publish_hook(*bus, event, "{}");
    engine.run();
    return accepted;
  }

  /// Finishes the held executions and runs; returns their triggers.
  std::vector<std::string> release() {
    auto names = held->release();
    engine.run();
    return names;
  }

  bool gauge_reads(std::int64_t value) {
    return series_reads("ganglion_work_in_flight", value);
  }

  /// Whether /metrics has the line `<series> <value>`.
  bool series_reads(const std::string& series, std::int64_t value) {
    auto line = "\n" + series + " " + std::to_string(value) + "\n";
    return engine->metrics().render().find(line) != std::string::npos;
  }

  /// Publishes an event of `hooks/<event>` without running any actor.
  bool publish(const std::string& event) {
    std::lock_guard guard{held->mutex};
    return test::publish_hook(*held->publishers[event], event, "{}");
  }
};

} // namespace

TEST(engine_idle, a_running_firing_keeps_the_engine_busy_until_it_finishes) {
  engine_under_test t;
  EXPECT_EQ(t.engine->in_flight(), 0);
  EXPECT_TRUE(t.gauge_reads(0)) << t.engine->metrics().render();
  ASSERT_TRUE(t.post("a"));
  EXPECT_EQ(t.held->size(), 1u);
  EXPECT_EQ(t.engine->in_flight(), 1) << "the firing of `now` still runs";
  EXPECT_TRUE(t.gauge_reads(1)) << t.engine->metrics().render();
  EXPECT_FALSE(t.engine->wait_idle(0ms));
  EXPECT_TRUE(t.series_reads(R"(ganglion_trigger_executions_in_flight{sensor="s",trigger="now"})", 1))
    << t.engine->metrics().render();
  EXPECT_EQ(t.release(), std::vector<std::string>{"now"});
  EXPECT_EQ(t.engine->in_flight(), 0);
  EXPECT_TRUE(t.engine->wait_idle(0ms));
  EXPECT_TRUE(t.gauge_reads(0)) << t.engine->metrics().render();
  EXPECT_TRUE(t.series_reads(R"(ganglion_trigger_executions_in_flight{sensor="s",trigger="now"})", 0))
    << t.engine->metrics().render();
}

TEST(engine_idle, a_sensors_backlog_is_what_the_bus_routed_to_it_and_it_has_not_judged) {
  engine_under_test t;
  const std::string backlog = R"(ganglion_sensor_backlog{sensor="s"})";
  EXPECT_TRUE(t.series_reads(backlog, 0)) << t.engine->metrics().render();
  ASSERT_TRUE(t.publish("a"));
  ASSERT_TRUE(t.publish("b"));
  ASSERT_TRUE(t.publish("c")); // no dependency: routed to no sensor
  // Accepted, not routed yet: the bus's queue is not a sensor's backlog.
  EXPECT_TRUE(t.series_reads(backlog, 0));
  // The dispatcher routes both to `s`; `s` has not run.
  ASSERT_TRUE(t.engine.run_once());
  EXPECT_TRUE(t.series_reads(backlog, 2)) << t.engine->metrics().render();
  auto text = t.engine->metrics().render();
  EXPECT_NE(text.find(R"(ganglion_sensor_backlog_oldest_milliseconds{sensor="s"} )"),
            std::string::npos)
    << text;
  t.engine.run();
  EXPECT_TRUE(t.series_reads(backlog, 0)) << t.engine->metrics().render();
  EXPECT_TRUE(t.series_reads(R"(ganglion_sensor_backlog_oldest_milliseconds{sensor="s"})", 0));
  t.release();
}

TEST(engine_idle, an_event_held_in_a_join_or_heard_by_no_sensor_leaves_the_engine_idle) {
  engine_under_test t;
  ASSERT_TRUE(t.post("a"));
  EXPECT_EQ(t.release(), std::vector<std::string>{"now"});
  // `pair` holds a; c has no dependency. Idle, and nothing is left to fire later.
  EXPECT_EQ(t.engine->in_flight(), 0);
  ASSERT_TRUE(t.post("c"));
  EXPECT_EQ(t.engine->in_flight(), 0);
  EXPECT_TRUE(t.engine.idle());
  EXPECT_EQ(t.held->size(), 0u);
  // b completes the join of `pair` (`now` does not listen to b).
  ASSERT_TRUE(t.post("b"));
  EXPECT_EQ(t.engine->in_flight(), 1);
  EXPECT_EQ(t.release(), std::vector<std::string>{"pair"});
  EXPECT_EQ(t.engine->in_flight(), 0);
}
