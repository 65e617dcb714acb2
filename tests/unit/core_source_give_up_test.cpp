// A source that gives up (source_context::give_up) stays in phase Error without restarts until
// engine::restart_source or a reload starts it again.

#include <mutex>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/load.hpp"

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

/// An engine whose one source gives up at start while `give_up` is set.
struct engine_under_test {
  std::mutex mutex;
  int starts = 0;
  bool give_up = true;
  std::unique_ptr<core::engine> engine;

  engine_under_test() {
    core::source_registry sources;
    sources["webhook"] = [this](const core::source_context& cx) {
      std::lock_guard guard{mutex};
      ++starts;
      if (give_up)
        cx.give_up("the service did not answer 3 attempts");
      return std::make_unique<idle_source>();
    };
    core::engine_options options;
    options.initial_backoff = 20ms;
    engine = std::make_unique<core::engine>(options, std::move(sources), core::trigger_registry{});
    engine->start(documents());
  }
  ~engine_under_test() { engine->stop(); }

  static std::vector<dsl::document> documents() {
    auto loaded = dsl::load_manifest_text(manifest, "test.yaml");
    for (const auto& d : loaded.diagnostics)
      ADD_FAILURE() << d.to_string();
    return loaded.documents;
  }

  int started() {
    std::lock_guard guard{mutex};
    return starts;
  }
  void set_give_up(bool value) {
    std::lock_guard guard{mutex};
    give_up = value;
  }

  core::component_status source() {
    for (const auto& c : engine->status().snapshot())
      if (c.kind == "source")
        return c;
    return {};
  }

  core::engine::restart_outcome restart(const std::string& es, const std::string& event) {
    return engine->restart_source(es, event);
  }
};

} // namespace

TEST(core_source_give_up, stays_in_error_without_restarts) {
  engine_under_test t;
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::error; }))
    << t.engine->status().to_json();
  EXPECT_EQ(t.source().last_error, "the service did not answer 3 attempts");
  // The supervisor decides in the handler that sets Error: a restart would have been counted
  // already. That no restart is left pending is child_supervisor's deterministic test
  // (a_final_failure_is_an_error_at_once_with_no_restart_pending).
  EXPECT_EQ(t.started(), 1);
  EXPECT_EQ(t.source().restarts, 0u);
  EXPECT_FALSE(t.engine->ready());
}

TEST(core_source_give_up, restart_source_starts_it_again) {
  engine_under_test t;
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::error; }));
  t.set_give_up(false);
  EXPECT_EQ(t.restart("hooks", "example"), core::engine::restart_outcome::restarted);
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::running; }))
    << t.engine->status().to_json();
  EXPECT_EQ(t.started(), 2);
  EXPECT_TRUE(t.source().last_error.empty()) << t.source().last_error;
  EXPECT_TRUE(t.engine->ready());
  EXPECT_EQ(t.restart("hooks", "nope"), core::engine::restart_outcome::unknown);
  EXPECT_EQ(t.restart("other", "example"), core::engine::restart_outcome::unknown);
}

TEST(core_source_give_up, a_reload_of_the_same_manifest_starts_it_again) {
  engine_under_test t;
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::error; }));
  t.set_give_up(false);
  auto result = t.engine->reload(engine_under_test::documents());
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::running; }))
    << t.engine->status().to_json();
  EXPECT_EQ(t.started(), 2);
  ASSERT_EQ(result.restarted.size(), 1u);
  EXPECT_EQ(result.restarted[0], "source/hooks/example");
  // A running source is left alone by a reload that does not change it.
  result = t.engine->reload(engine_under_test::documents());
  EXPECT_EQ(t.started(), 2);
  EXPECT_TRUE(result.restarted.empty());
}
