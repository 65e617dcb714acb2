// A source that gives up (source_context::give_up) stays in phase Error without restarts until
// engine::restart_source or a reload starts it again. The engine runs on CAF's deterministic
// scheduler: "no restart" is checked with no timer left pending, without sleeping.

#include <gtest/gtest.h>

#include "deterministic_engine.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* manifest = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  webhook:
    example: {endpoint: /example, port: "12000", method: POST}
)";

struct idle_source : core::source {};

/// Starts of the one source, and whether the next one gives up.
struct source_starts {
  int count = 0;
  bool give_up = true;
};

core::source_registry giving_up(std::shared_ptr<source_starts> starts) {
  core::source_registry sources;
  sources["webhook"] = [starts](const core::source_context& cx) {
    ++starts->count;
    if (starts->give_up)
      cx.give_up("the service did not answer 3 attempts");
    return std::make_unique<idle_source>();
  };
  return sources;
}

/// An engine whose one source gives up at start while `starts->give_up` is set.
struct engine_under_test {
  std::shared_ptr<source_starts> starts = std::make_shared<source_starts>();
  test::deterministic_engine engine{options(), giving_up(starts), core::trigger_registry{}};

  engine_under_test() { engine.start(manifest); }

  static core::engine_options options() {
    core::engine_options o;
    o.initial_backoff = 20ms;
    return o;
  }

  core::component_status source() { return engine.component("source", "hooks/example"); }
};

} // namespace

TEST(core_source_give_up, stays_in_error_without_restarts) {
  engine_under_test t;
  EXPECT_EQ(t.source().phase, core::phase::error) << t.engine->status().to_json();
  EXPECT_EQ(t.source().last_error, "the service did not answer 3 attempts");
  // No restart is pending: nothing can happen without a message from outside.
  EXPECT_TRUE(t.engine.idle());
  t.engine.advance(1h);
  EXPECT_EQ(t.starts->count, 1);
  EXPECT_EQ(t.source().restarts, 0u);
  EXPECT_FALSE(t.engine->ready());
}

TEST(core_source_give_up, restart_source_starts_it_again) {
  engine_under_test t;
  ASSERT_EQ(t.source().phase, core::phase::error);
  t.starts->give_up = false;
  EXPECT_EQ(t.engine->restart_source("hooks", "example"),
            core::engine::restart_outcome::restarted);
  t.engine.run();
  EXPECT_EQ(t.source().phase, core::phase::running) << t.engine->status().to_json();
  EXPECT_EQ(t.starts->count, 2);
  EXPECT_TRUE(t.source().last_error.empty()) << t.source().last_error;
  EXPECT_TRUE(t.engine->ready());
  EXPECT_EQ(t.engine->restart_source("hooks", "nope"), core::engine::restart_outcome::unknown);
  EXPECT_EQ(t.engine->restart_source("other", "example"),
            core::engine::restart_outcome::unknown);
}

TEST(core_source_give_up, a_reload_of_the_same_manifest_starts_it_again) {
  engine_under_test t;
  ASSERT_EQ(t.source().phase, core::phase::error);
  t.starts->give_up = false;
  auto result = t.engine.reload(manifest);
  EXPECT_EQ(t.source().phase, core::phase::running) << t.engine->status().to_json();
  EXPECT_EQ(t.starts->count, 2);
  ASSERT_EQ(result.restarted.size(), 1u);
  EXPECT_EQ(result.restarted[0], "source/hooks/example");
  // A running source is left alone by a reload that does not change it.
  result = t.engine.reload(manifest);
  EXPECT_EQ(t.starts->count, 2);
  EXPECT_TRUE(result.restarted.empty());
}

TEST(core_source_give_up, a_stopped_engine_restarts_nothing) {
  engine_under_test t;
  t.engine.stop();
  EXPECT_EQ(t.engine->restart_source("hooks", "example"),
            core::engine::restart_outcome::stopped);
  EXPECT_THROW(t.engine.engine().reload(test::deterministic_engine::load(manifest), {}),
               std::logic_error);
}
