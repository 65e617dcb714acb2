#pragma once

// An actor system on CAF 0.17's deterministic scheduler (caf::scheduler::test_coordinator):
// actors run only inside run(), and delayed messages (backoffs, timers) fire only when the test
// moves the clock. What did not happen after run() cannot happen later without the clock, so a
// test asserts absence without sleeping. caf/test/dsl.hpp wraps the same coordinator but needs
// CAF's own test engine (its CAF_CHECK macros and main), hence this gtest-friendly shell.

#include <chrono>
#include <optional>
#include <utility>

#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>

#include <gtest/gtest.h>

namespace ganglion::test {

/// An actor system whose actors run on the test's thread, in `run()`, and whose clock moves
/// only in `advance()` / `run_timers()`. Send every actor the test spawned an exit before the
/// system goes: CAF waits for running actors at shutdown, and nothing runs them then (a hang).
class deterministic_system {
public:
  /// A system with the testing scheduler and a hidden scoped actor for requests.
  deterministic_system() : sys_{configure(cfg_)}, self_{sys_, true} {}

  deterministic_system(const deterministic_system&) = delete;
  deterministic_system& operator=(const deterministic_system&) = delete;

  /// Runs the remaining jobs, so that actors shut down in the test finish before the system.
  ~deterministic_system() { run(); }

  /// The actor system.
  caf::actor_system& sys() noexcept { return sys_; }

  /// The coordinator (its clock, job queue and pending timeouts).
  caf::scheduler::test_coordinator& sched() {
    return dynamic_cast<caf::scheduler::test_coordinator&>(sys_.scheduler());
  }

  /// Lets every actor handle its messages until none is left; returns how many jobs ran.
  /// Delayed messages stay pending.
  std::size_t run() {
    std::size_t jobs = 0;
    while (sched().try_run_once())
      ++jobs;
    return jobs;
  }

  /// Moves the clock by `by`, delivers the delayed messages now due, and runs; returns how many
  /// timeouts fired.
  std::size_t advance(caf::timespan by) {
    auto fired = sched().advance_time(by);
    run();
    return fired;
  }

  /// Fires pending timeouts one by one, earliest first, running after each, until none is left
  /// or `limit` fired; returns how many fired.
  std::size_t run_timers(std::size_t limit = 100) {
    run();
    std::size_t fired = 0;
    while (fired < limit && sched().trigger_timeout()) {
      ++fired;
      run();
    }
    return fired;
  }

  /// True when nothing can happen without an outside message: no job and no pending timeout.
  bool idle() { return !sched().has_job() && !sched().has_pending_timeout(); }

  /// Sends `xs` to `dest` as a request, runs, and returns the answer of type T; nullopt (and a
  /// test failure unless `expect_answer` is false) when `dest` answered with an error or not at
  /// all.
  template <class T, class... Ts>
  std::optional<T> request(const caf::actor& dest, bool expect_answer, Ts&&... xs) {
    auto handle = self_->request(dest, caf::infinite, std::forward<Ts>(xs)...);
    run();
    if (self_->mailbox().empty()) {
      if (expect_answer)
        ADD_FAILURE() << "no answer after every actor ran";
      return std::nullopt;
    }
    std::optional<T> result;
    handle.receive([&](T& x) { result = std::move(x); },
                   [&](const caf::error& e) {
                     if (expect_answer)
                       ADD_FAILURE() << sys_.render(e);
                   });
    return result;
  }

  /// An actor whose messages the test reads with received() (the system's scoped actor).
  caf::actor inbox() { return caf::actor_cast<caf::actor>(self_); }

  /// Takes a T from the inbox; false when none is there.
  template <class T>
  bool received() {
    bool got = false;
    self_->receive([&](T) { got = true; }, caf::after(caf::timespan{0}) >> [] {});
    return got;
  }

private:
  static caf::actor_system_config& configure(caf::actor_system_config& cfg) {
    cfg.set("scheduler.policy", caf::atom("testing"));
    cfg.set("logger.file-verbosity", caf::atom("quiet"));
    return cfg;
  }

  caf::actor_system_config cfg_;
  caf::actor_system sys_;
  caf::scoped_actor self_;
};

} // namespace ganglion::test
