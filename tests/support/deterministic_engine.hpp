#pragma once

// A whole engine on CAF's deterministic scheduler (deterministic_system.hpp): its actors run
// only in run(), its backoffs and timers fire only when the test moves the clock. start(),
// reload() and stop() return with what they did applied, so a test asserts the engine's state
// at once, and asserts that something did not happen without sleeping. For engines whose
// sources and triggers the test writes (no thread of their own), in memory (no data dir), on
// the embedded bus.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "deterministic_system.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::test {

/// An engine whose tree runs on a deterministic_system the test drives.
class deterministic_engine {
public:
  /// An engine with `sources` and `triggers` on the test's system; nothing runs yet.
  deterministic_engine(core::engine_options options, core::source_registry sources,
                       core::trigger_registry triggers)
    : engine_{det_.sys(), std::move(options), std::move(sources), std::move(triggers)} {}

  deterministic_engine(const deterministic_engine&) = delete;
  deterministic_engine& operator=(const deterministic_engine&) = delete;

  /// Stops the engine when the test did not, so that its actors are gone before the system.
  ~deterministic_engine() { stop(); }

  /// The manifests of `text`; a test failure for each diagnostic.
  static std::vector<dsl::document> load(const std::string& text) {
    auto loaded = dsl::load_manifest_text(text, "test.yaml");
    for (const auto& d : loaded.diagnostics)
      ADD_FAILURE() << d.to_string();
    return loaded.documents;
  }

  /// Starts the engine on `text` and runs until nothing is left to do without the clock.
  void start(const std::string& text) {
    engine_.start(load(text));
    det_.run();
  }

  /// Reloads `text` and runs until the reload answered; a test failure when it did not.
  core::reload_result reload(const std::string& text) {
    std::optional<core::reload_result> result;
    engine_.reload(load(text), [&](core::reload_result r) { result = std::move(r); });
    det_.run();
    if (!result) {
      ADD_FAILURE() << "the reload did not answer after every actor ran";
      return {};
    }
    return *result;
  }

  /// Stops the engine and runs until it is down; a test failure when it is not.
  void stop() {
    if (stopped_)
      return;
    stopped_ = true;
    engine_.stop(det_.inbox());
    det_.run();
    if (!det_.received<core::engine_stopped_atom>())
      ADD_FAILURE() << "the engine did not stop after every actor ran";
  }

  /// Runs until nothing is left to do without the clock.
  void run() { det_.run(); }

  /// Runs the next job alone (one actor handling its next message); false when none is queued.
  bool run_once() { return det_.sched().try_run_once(); }

  /// Moves the clock by `by`, fires what became due and runs.
  void advance(caf::timespan by) { det_.advance(by); }

  /// Whether nothing can happen without a message from outside: no job, no pending timer.
  bool idle() { return det_.idle(); }

  /// The engine.
  core::engine& engine() noexcept { return engine_; }
  core::engine* operator->() noexcept { return &engine_; }

  /// The status of component (kind, name); an empty one when it is not there.
  core::component_status component(const std::string& kind, const std::string& name) {
    for (auto& c : engine_.status().snapshot())
      if (c.kind == kind && c.name == name)
        return c;
    return {};
  }

private:
  deterministic_system det_;
  core::engine engine_;
  bool stopped_ = false;
};

} // namespace ganglion::test
