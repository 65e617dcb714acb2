// A source whose factory has pending_until_connected is Pending, with what it waits for, until
// it reports source_context::connected; the engine is not ready meanwhile. On CAF's
// deterministic scheduler: each phase is the one after every actor ran.

#include <functional>

#include <gtest/gtest.h>

#include "deterministic_engine.hpp"

using namespace ganglion;

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

/// One webhook source; with `waits`, it waits for its service until `connected` is called.
core::source_registry sources(bool waits, std::shared_ptr<std::function<void()>> connected) {
  core::source_factory factory{[connected](const core::source_context& cx) {
    *connected = cx.connected;
    return std::make_unique<idle_source>();
  }};
  if (waits)
    factory.pending_until_connected([](const core::source_context& cx) {
      return "connecting to " + cx.event_source_name + "-service";
    });
  return core::source_registry{{"webhook", factory}};
}

struct engine_under_test {
  std::shared_ptr<std::function<void()>> connected = std::make_shared<std::function<void()>>();
  test::deterministic_engine engine;

  explicit engine_under_test(bool waits)
    : engine{core::engine_options{}, sources(waits, connected), core::trigger_registry{}} {
    engine.start(manifest);
  }

  core::component_status source() { return engine.component("source", "hooks/example"); }
};

} // namespace

TEST(core_source_connected, pending_with_what_it_waits_for_until_it_reports) {
  engine_under_test t{true};
  ASSERT_TRUE(*t.connected) << "the source was not created";
  EXPECT_EQ(t.source().phase, core::phase::pending) << t.engine->status().to_json();
  EXPECT_EQ(t.source().message, "connecting to hooks-service");
  EXPECT_FALSE(t.engine->ready());
  auto blockers = t.engine->status().blockers();
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0], "source hooks/example: Pending: connecting to hooks-service");
  EXPECT_NE(t.engine->status().to_json().find(R"("message": "connecting to hooks-service")"),
            std::string::npos)
    << t.engine->status().to_json();

  (*t.connected)();
  t.engine.run();
  EXPECT_EQ(t.source().phase, core::phase::running) << t.engine->status().to_json();
  EXPECT_TRUE(t.source().message.empty()) << t.source().message;
  EXPECT_TRUE(t.engine->ready());
}

TEST(core_source_connected, a_source_that_does_not_opt_in_runs_once_created) {
  engine_under_test t{false};
  EXPECT_EQ(t.source().phase, core::phase::running) << t.engine->status().to_json();
  EXPECT_TRUE(t.source().message.empty());
  EXPECT_TRUE(t.engine->ready());
}
