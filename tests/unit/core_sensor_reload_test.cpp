// Hot reload of a sensor that holds a half-satisfied join: adding, removing, renaming and
// reordering its triggers and dependencies. Under make test the engine is built with
// AddressSanitizer: a reload that reads past a trigger's bookkeeping fails the test where it
// happens instead of corrupting memory. The engine runs on CAF's deterministic scheduler.

#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core_engine_support.hpp"
#include "deterministic_engine.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// What the test's triggers did, and how the test publishes into the engine.
struct world {
  std::mutex mutex;
  /// `trigger: dep=data,dep=data` per execution, in order.
  std::vector<std::string> fired;
  /// By trigger name: executor creations that succeed (the engine's check of the
  /// configuration is the first), then the ones that fail; later ones succeed.
  std::map<std::string, std::pair<int, int>> starts;
  /// The bus publisher of each `<eventsource>/<event>`.
  std::map<std::string, std::shared_ptr<core::bus_publisher>> publishers;

  std::vector<std::string> firings() {
    std::lock_guard guard{mutex};
    return fired;
  }
  std::size_t count() { return firings().size(); }
};

/// Records each execution in the world; its trigger is named by the manifest.
class recording_executor : public core::trigger_executor {
public:
  recording_executor(std::shared_ptr<world> w, std::string name)
    : world_(std::move(w)), name_(std::move(name)) {}

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    std::string line = name_ + ":";
    for (const auto& [dependency, e] : invocation.events)
      line += " " + dependency + "=" + (e ? e->data : "-");
    {
      std::lock_guard guard{world_->mutex};
      world_->fired.push_back(line);
    }
    done(core::trigger_outcome{true, {}, "recorded"});
  }

private:
  std::shared_ptr<world> world_;
  std::string name_;
};

/// A source that only hands its bus publisher to the test.
struct captured_source : core::source {};

core::source_registry capturing(std::shared_ptr<world> w) {
  core::source_registry sources;
  sources["webhook"] = [w](const core::source_context& cx) {
    std::lock_guard guard{w->mutex};
    w->publishers[cx.event_source_name + "/" + cx.event_name] = cx.bus;
    return std::make_unique<captured_source>();
  };
  return sources;
}

core::trigger_registry recording(std::shared_ptr<world> w) {
  core::trigger_registry triggers;
  triggers["http"] =
    [w](const core::trigger_context& cx) -> std::unique_ptr<core::trigger_executor> {
    const auto& name = cx.manifest->template_.name;
    {
      std::lock_guard guard{w->mutex};
      auto& [pass, fail] = w->starts[name];
      if (pass > 0) {
        --pass;
      } else if (fail > 0) {
        --fail;
        throw core::trigger_error("trigger " + name + " cannot start yet");
      }
    }
    return std::make_unique<recording_executor>(w, name);
  };
  return triggers;
}

/// Restarts 300 ms apart, as many as a test needs.
core::engine_options restarting() {
  core::engine_options options;
  options.initial_backoff = 300ms;
  options.max_backoff = 300ms;
  options.max_failures = 100;
  return options;
}

/// The engine on CAF's deterministic scheduler: after each step every actor has run, so what
/// fired is final.
struct running {
  std::shared_ptr<world> w = std::make_shared<world>();
  test::deterministic_engine engine{restarting(), capturing(w), recording(w)};

  explicit running(const std::string& manifest) {
    engine.start(manifest);
    EXPECT_TRUE(engine->ready()) << engine->status().to_json();
    for (const auto& c : engine->status().snapshot())
      EXPECT_EQ(c.phase, core::phase::running) << c.kind << " " << c.name;
  }

  core::reload_result reload(const std::string& manifest) { return engine.reload(manifest); }

  /// Publishes an event of `hooks/<event>` with `data` and runs; true once the bus accepted it.
  bool post(const std::string& event, const std::string& data) {
    std::shared_ptr<core::bus_publisher> bus;
    {
      std::lock_guard guard{w->mutex};
      bus = w->publishers["hooks/" + event];
    }
    bool accepted = bus && test::publish_hook(*bus, event, data);
    engine.run();
    return accepted;
  }

  /// The value of the metric series `series` (with its labels); 0 when it is not there.
  std::uint64_t metric(const std::string& series) {
    auto text = engine->metrics().render();
    auto at = text.find(series + " ");
    if (at == std::string::npos)
      return 0;
    return std::stoull(text.substr(at + series.size() + 1));
  }

  std::uint64_t dropped() { return metric("ganglion_triggers_dropped_total{sensor=\"s\"}"); }

  /// Events of `dependency` that sensor `s` judged passing.
  std::uint64_t passed(const std::string& dependency) {
    return metric(fmt::format(
      "ganglion_dependency_events_total{{sensor=\"s\",dependency=\"{}\",result=\"pass\"}}",
      dependency));
  }
};

using test::trigger_spec;

std::string manifest(const std::vector<std::string>& dependencies,
                     const std::vector<trigger_spec>& triggers, const std::string& url_tail = "") {
  return test::hooks_manifest(dependencies, triggers, url_tail);
}

/// The executions so far, once nothing is in flight: every event published was judged and
/// every firing it caused executed, so nothing more fires.
std::vector<std::string> settled(running& r) {
  EXPECT_EQ(r.engine->in_flight(), 0);
  return r.w->firings();
}

/// The sensor judged what was published (a held event is in its join).
void judged(running& r) {
  ASSERT_EQ(r.engine->in_flight(), 0);
}

} // namespace

TEST(sensor_reload, adding_a_trigger_keeps_the_join_of_the_others_and_starts_the_new_one_empty) {
  running r{manifest({"a", "b"}, {{"t", "a && b"}})};
  ASSERT_TRUE(r.post("a", "1"));
  judged(r);
  auto result = r.reload(manifest({"a", "b"}, {{"t", "a && b"}, {"t2", "a && b"}}));
  EXPECT_EQ(result.reconfigured, std::vector<std::string>{"sensor/s"});
  ASSERT_TRUE(r.post("b", "2"));
  ASSERT_EQ(r.w->count(), 1u);
  EXPECT_EQ(settled(r), std::vector<std::string>{"t: a=1 b=2"});
  // The new trigger holds what came after the reload: b=2.
  ASSERT_TRUE(r.post("a", "3"));
  ASSERT_TRUE(r.post("b", "4"));
  ASSERT_EQ(r.w->count(), 3u);
  auto all = settled(r);
  std::multiset<std::string> last(all.begin() + 1, all.end());
  EXPECT_EQ(last, (std::multiset<std::string>{"t2: a=3 b=2", "t: a=3 b=4"}));
}

TEST(sensor_reload, adding_several_triggers_before_and_after_a_held_one) {
  running r{manifest({"a", "b"}, {{"t", "a && b"}})};
  ASSERT_TRUE(r.post("a", "1"));
  judged(r);
  r.reload(manifest({"a", "b"}, {{"x", "b"}, {"t", "a && b"}, {"y", "a || b"}}));
  ASSERT_TRUE(r.post("b", "2"));
  ASSERT_EQ(r.w->count(), 3u);
  auto all = settled(r);
  EXPECT_EQ(std::multiset<std::string>(all.begin(), all.end()),
            (std::multiset<std::string>{"t: a=1 b=2", "x: b=2", "y: b=2"}));
}

TEST(sensor_reload, removing_a_trigger_keeps_the_join_of_the_others) {
  running r{manifest({"a", "b"}, {{"gone", "a && b"}, {"t", "a && b"}})};
  ASSERT_TRUE(r.post("a", "1"));
  judged(r);
  r.reload(manifest({"a", "b"}, {{"t", "a && b"}}));
  ASSERT_TRUE(r.post("b", "2"));
  ASSERT_EQ(r.w->count(), 1u);
  EXPECT_EQ(settled(r), std::vector<std::string>{"t: a=1 b=2"});
}

TEST(sensor_reload, a_renamed_trigger_is_a_new_trigger_whose_join_starts_empty) {
  running r{manifest({"a", "b"}, {{"old", "a && b"}, {"t", "a && b"}})};
  ASSERT_TRUE(r.post("a", "1"));
  judged(r);
  r.reload(manifest({"a", "b"}, {{"new", "a && b"}, {"t", "a && b"}}));
  ASSERT_TRUE(r.post("b", "2"));
  ASSERT_EQ(r.w->count(), 1u);
  EXPECT_EQ(settled(r), std::vector<std::string>{"t: a=1 b=2"});
  // `new` holds b=2 from after the reload; `t` fired and holds nothing.
  ASSERT_TRUE(r.post("a", "3"));
  ASSERT_EQ(r.w->count(), 2u);
  EXPECT_EQ(settled(r), (std::vector<std::string>{"t: a=1 b=2", "new: a=3 b=2"}));
}

TEST(sensor_reload, reordered_triggers_and_dependencies_keep_their_joins) {
  running r{manifest({"a", "b", "c"}, {{"t1", "a && b"}, {"t2", "a && c"}})};
  ASSERT_TRUE(r.post("a", "1"));
  judged(r);
  // The order alone is no change; with a trigger added the sensor is reconfigured.
  r.reload(manifest({"c", "b", "a"}, {{"t3", "c"}, {"t2", "a && c"}, {"t1", "a && b"}}));
  ASSERT_TRUE(r.post("c", "2"));
  ASSERT_EQ(r.w->count(), 2u);
  ASSERT_TRUE(r.post("b", "3"));
  ASSERT_EQ(r.w->count(), 3u);
  auto all = settled(r);
  EXPECT_EQ(std::multiset<std::string>(all.begin(), all.end()),
            (std::multiset<std::string>{"t2: a=1 c=2", "t3: c=2", "t1: a=1 b=3"}));
}

TEST(sensor_reload, a_removed_dependency_drops_its_held_event_and_an_added_one_starts_empty) {
  running r{manifest({"a", "b"}, {{"t", "a && b"}, {"u", "b && a"}})};
  ASSERT_TRUE(r.post("a", "1"));
  ASSERT_TRUE(r.post("b", "2"));
  ASSERT_EQ(r.w->count(), 2u);
  ASSERT_TRUE(r.post("b", "3")); // held by t and u for b
  judged(r);
  r.reload(manifest({"b", "c"}, {{"t", "b && c"}, {"u", "b && c"}}));
  // t's and u's conditions changed: their fingerprints differ, their joins of `b` remain.
  ASSERT_TRUE(r.post("c", "4"));
  ASSERT_EQ(r.w->count(), 4u);
  auto all = settled(r);
  EXPECT_EQ(std::multiset<std::string>(all.begin() + 2, all.end()),
            (std::multiset<std::string>{"t: b=3 c=4", "u: b=3 c=4"}));
  ASSERT_TRUE(r.post("a", "5")); // no dependency listens to a any more
  EXPECT_EQ(settled(r).size(), 4u);
}

TEST(sensor_reload, firings_parked_for_a_restarting_trigger_follow_it_or_are_dropped_with_it) {
  running r{manifest({"a"}, {{"keep", "a"}, {"drop", "a"}})};
  {
    // The reload's configuration check passes; every start of the actors fails.
    std::lock_guard guard{r.w->mutex};
    r.w->starts["keep"] = {1, 1000};
    r.w->starts["drop"] = {1, 1000};
  }
  // Both triggers restart again and again (a reload changed them): a firing parks for each.
  r.reload(manifest({"a"}, {{"keep", "a"}, {"drop", "a"}}, "/v2"));
  ASSERT_TRUE(r.post("a", "1"));
  // Judged, and its two firings parked: they stay in flight, so the engine is not idle.
  EXPECT_EQ(r.passed("a"), 1u);
  ASSERT_EQ(r.engine->in_flight(), 2);
  EXPECT_EQ(r.w->count(), 0u);
  {
    std::lock_guard guard{r.w->mutex};
    r.w->starts["keep"] = {0, 0};
  }
  // `drop` goes, `keep` moves to the front and is changed: its parked firing reaches it.
  r.reload(manifest({"a"}, {{"added", "a"}, {"keep", "a"}}, "/v3"));
  ASSERT_EQ(r.w->count(), 1u);
  EXPECT_EQ(settled(r), std::vector<std::string>{"keep: a=1"});
  EXPECT_EQ(r.dropped(), 1u);
  ASSERT_TRUE(r.post("a", "2"));
  ASSERT_EQ(r.w->count(), 3u);
  auto all = settled(r);
  EXPECT_EQ(std::multiset<std::string>(all.begin() + 1, all.end()),
            (std::multiset<std::string>{"added: a=2", "keep: a=2"}));
}
