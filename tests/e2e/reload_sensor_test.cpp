// Hot reload of a sensor that changed: what it keeps and what it drops.

#include <thread>

#include "eventually.hpp"
#include "reload_support.hpp"

using namespace ganglion;
using namespace ganglion::e2e::reload;
using namespace std::chrono_literals;

namespace {

/// Sensor `pair` (a && b) where each dependency may carry a filter on body.v.
std::string pair_manifests(std::uint16_t port, const std::string& sink, const std::string& a_value,
                           const std::string& b_value) {
  auto filter = [](const std::string& value) {
    return fmt::format("      filters:\n        data:\n          - path: body.v\n"
                       "            type: string\n            value: [\"{}\"]\n",
                       value);
  };
  return e2e::webhook_source("hooks", port, {"a", "b", "c"})
         + sensor("pair", dependency("a", filter(a_value)) + dependency("b", filter(b_value)),
                  "both", "a && b", sink + "/pair", {{"a", "a"}, {"b", "b"}});
}

/// Applies `text` with POST /v1/reload; the reload must succeed.
void reload_with(reloading_engine& engine, const std::string& text) {
  engine.write(text);
  auto r = engine.admin_post("/v1/reload");
  ASSERT_EQ(r.status, 200) << r.body << engine.output();
}

} // namespace

// The changed sensor itself: a changed dependency loses its stored event, an unchanged one
// keeps it, and the join fires with what was kept.
TEST(e2e_reload, a_changed_sensor_keeps_the_join_state_of_its_unchanged_dependencies) {
  test::http_sink sink;
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, sink.url("")}, false};
  reload_with(engine, pair_manifests(port, sink.url(""), "a1", "b1"));

  // `a` is held; b's filter changes: a's stored event stays.
  ASSERT_EQ(post_v(port, "a", "a1").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pair", "a", "pass", 1)))
    << engine.metrics();
  reload_with(engine, pair_manifests(port, sink.url(""), "a1", "b2"));
  ASSERT_EQ(post_v(port, "b", "b1").status, 200); // the old filter's value: rejected now
  ASSERT_EQ(post_v(port, "b", "b2").status, 200);
  ASSERT_TRUE(wait_count(sink, "/pair", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/pair", 0), R"({"a":"a1","b":"b2"})");

  // `a` is held again; now a's own filter changes: its stored event is dropped.
  ASSERT_EQ(post_v(port, "a", "a1").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pair", "a", "pass", 2)))
    << engine.metrics();
  reload_with(engine, pair_manifests(port, sink.url(""), "a2", "b2"));
  ASSERT_EQ(post_v(port, "b", "b2").status, 200);
  // b2 alone must wait; a2 completes the join. Had the dropped a1 been kept, b2 would have
  // fired with it, and the second firing would carry a1.
  ASSERT_EQ(post_v(port, "a", "a2").status, 200);
  ASSERT_TRUE(wait_count(sink, "/pair", 2)) << engine.output();
  EXPECT_EQ(body_of(sink, "/pair", 1), R"({"a":"a2","b":"b2"})")
    << "the changed dependency's stored event was kept";
  ASSERT_TRUE(engine.wait_metric(e2e::triggers_fired("pair", "both", 2))) << engine.metrics();
  EXPECT_EQ(count(sink, "/pair"), 2u);
  EXPECT_NE(engine.output().find("sensor pair reloaded: 1 stored join event(s) kept"),
            std::string::npos)
    << engine.output();
}

namespace {

/// The issue's reproduction: webhook `hooks/a`, sensor `one` with trigger `t` (log); the
/// reload appends `t2`. `triggers` is the list under `triggers:`.
std::string one_sensor(std::uint16_t port, const std::string& triggers) {
  return e2e::webhook_source("hooks", port, {"a"}) + R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: one
spec:
  dependencies:
    - name: a
      eventSourceName: hooks
      eventName: a
  triggers:
)" + triggers;
}

/// Applies a sensor with a trigger added, by `how`, and checks the process lives and both fire.
void add_a_trigger_by(const std::string& how) {
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, "http://127.0.0.1:9"}, how == "watch"};
  const std::string t = "    - template: {name: t, log: {}}\n";
  engine.write(one_sensor(port, t));
  test::http_response r;
  if (how == "watch") {
    ASSERT_TRUE(engine.wait_reloads(1)) << engine.output();
  } else {
    r = engine.admin_post("/v1/reload");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  if (how == "watch") {
    // Kept: the watcher may still fold events of the first write into its 200 ms debounce and
    // reload again; read after `before`, that reload would pass for the second one. A quiet
    // debounce leaves no trace a test could wait for.
    std::this_thread::sleep_for(300ms);
  }
  auto before = engine.reloads();
  engine.write(one_sensor(port, t + "    - template: {name: t2, log: {}}\n"));
  if (how == "post") {
    r = engine.admin_post("/v1/reload");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find("sensor/one"), std::string::npos) << r.body;
  } else if (how == "sighup") {
    engine.process().signal(SIGHUP);
  }
  ASSERT_TRUE(engine.wait_reloads(before + 1)) << engine.output();
  ASSERT_EQ(post_v(port, "a", "x").status, 200) << engine.output();
  ASSERT_TRUE(test::eventually([&] {
    auto out = engine.output();
    return out.find("log trigger one/t2 fired") != std::string::npos
           && out.find("log trigger one/t fired") != std::string::npos;
  })) << engine.output();
  EXPECT_TRUE(engine.process().running()) << engine.output();
}

} // namespace

// Adding a trigger by a reload crashed the engine (SIGSEGV) before the trigger bookkeeping
// moved ahead of the new trigger's start.
TEST(e2e_reload, adding_a_trigger_by_post_v1_reload_keeps_the_process_alive) {
  add_a_trigger_by("post");
}

TEST(e2e_reload, adding_a_trigger_by_sighup_keeps_the_process_alive) {
  add_a_trigger_by("sighup");
}

TEST(e2e_reload, adding_a_trigger_by_a_file_edit_keeps_the_process_alive) {
  add_a_trigger_by("watch");
}
