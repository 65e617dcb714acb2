// A source whose factory has pending_until_connected is Pending, with what it waits for, until
// it reports source_context::connected; the engine is not ready meanwhile.

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

/// An engine with one source; with `waits`, it waits for its service until connect().
struct engine_under_test {
  std::mutex mutex;
  std::function<void()> connected;
  std::unique_ptr<core::engine> engine;

  explicit engine_under_test(bool waits) {
    core::source_factory factory{[this](const core::source_context& cx) {
      std::lock_guard guard{mutex};
      connected = cx.connected;
      return std::make_unique<idle_source>();
    }};
    if (waits)
      factory.pending_until_connected([](const core::source_context& cx) {
        return "connecting to " + cx.event_source_name + "-service";
      });
    core::source_registry sources{{"webhook", factory}};
    engine = std::make_unique<core::engine>(core::engine_options{}, std::move(sources),
                                            core::trigger_registry{});
    auto loaded = dsl::load_manifest_text(manifest, "test.yaml");
    for (const auto& d : loaded.diagnostics)
      ADD_FAILURE() << d.to_string();
    engine->start(loaded.documents);
  }
  ~engine_under_test() { engine->stop(); }

  bool started() {
    std::lock_guard guard{mutex};
    return static_cast<bool>(connected);
  }
  void connect() {
    std::lock_guard guard{mutex};
    connected();
  }
  core::component_status source() {
    for (const auto& c : engine->status().snapshot())
      if (c.kind == "source")
        return c;
    return {};
  }
};

} // namespace

TEST(core_source_connected, pending_with_what_it_waits_for_until_it_reports) {
  engine_under_test t{true};
  ASSERT_TRUE(test::eventually(
    [&] { return t.started() && t.source().message == "connecting to hooks-service"; }))
    << t.engine->status().to_json();
  EXPECT_EQ(t.source().phase, core::phase::pending);
  EXPECT_FALSE(t.engine->ready());
  auto blockers = t.engine->status().blockers();
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0], "source hooks/example: Pending: connecting to hooks-service");
  EXPECT_NE(t.engine->status().to_json().find(R"("message": "connecting to hooks-service")"),
            std::string::npos)
    << t.engine->status().to_json();

  t.connect();
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::running; }))
    << t.engine->status().to_json();
  EXPECT_TRUE(t.source().message.empty()) << t.source().message;
  EXPECT_TRUE(t.engine->ready());
}

TEST(core_source_connected, a_source_that_does_not_opt_in_runs_once_created) {
  engine_under_test t{false};
  ASSERT_TRUE(test::eventually([&] { return t.source().phase == core::phase::running; }))
    << t.engine->status().to_json();
  EXPECT_TRUE(t.source().message.empty());
  EXPECT_TRUE(t.engine->ready());
}
