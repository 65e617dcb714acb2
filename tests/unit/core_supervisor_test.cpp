// The child supervisor's restarts and backoff, on CAF's deterministic scheduler: the test moves
// the clock, so a backoff is checked to the millisecond and "no more restarts" is a fact (no
// timer left), not the outcome of a sleep.

#include <atomic>
#include <chrono>

#include <gtest/gtest.h>

#include "deterministic_system.hpp"
#include "runtime/messages.hpp"
#include "runtime/supervisor.hpp"

using namespace ganglion::core;
using namespace std::chrono_literals;

namespace {

struct parent_state {
  std::unique_ptr<child_supervisor> children;
  static inline const char* name = "test.parent";
};

/// A parent whose children are given by `specs`.
caf::behavior parent(caf::stateful_actor<parent_state>* self, status_board* board,
                     std::vector<child_spec> specs) {
  supervision_policy policy;
  policy.initial_backoff = 5ms;
  policy.max_backoff = 20ms;
  self->state.children = std::make_unique<child_supervisor>(self, *board, policy);
  self->set_down_handler([self](caf::down_msg& m) { self->state.children->handle_down(m); });
  self->set_exit_handler([self](caf::exit_msg& m) {
    if (m.reason == caf::exit_reason::user_shutdown) {
      self->state.children->stop_all();
      self->quit(m.reason);
    }
  });
  for (auto& s : specs)
    self->state.children->add(std::move(s));
  return {[=](restart_atom, std::uint64_t i) { self->state.children->handle_restart(i); }};
}

/// A child that fails at start the first `failures` times it is spawned (as `kind` says).
child_spec flaky_child(std::string name, std::shared_ptr<std::atomic<int>> spawns, int failures,
                       status_board* board, failure_kind kind = failure_kind::restartable) {
  child_spec spec;
  spec.kind = "source";
  spec.name = name;
  spec.spawn = [=](caf::local_actor* p) {
    int n = ++*spawns;
    return p->spawn<caf::linked>([=](caf::event_based_actor* self) -> caf::behavior {
      if (n <= failures) {
        self->quit(component_failure("cannot bind port (attempt " + std::to_string(n) + ")", kind));
        return {};
      }
      return {[](int x) { return x; }};
    });
  };
  spec.on_started = [=](const caf::actor&) { board->set("source", name, phase::running); };
  return spec;
}

component_status find(const status_board& board, const std::string& name) {
  for (auto& c : board.snapshot())
    if (c.name == name)
      return c;
  return {};
}

} // namespace

TEST(child_supervisor, restarts_a_failed_child_with_backoff) {
  ganglion::test::deterministic_system det;
  status_board board;
  auto spawns = std::make_shared<std::atomic<int>>(0);
  auto root = det.sys().spawn(parent, &board, std::vector{flaky_child("once", spawns, 1, &board)});
  det.run();
  EXPECT_EQ(spawns->load(), 1);
  EXPECT_EQ(find(board, "once").phase, phase::restarting);
  EXPECT_EQ(det.advance(4ms), 0u) << "the initial backoff is 5 ms";
  EXPECT_EQ(spawns->load(), 1);
  EXPECT_EQ(det.advance(1ms), 1u);
  EXPECT_EQ(spawns->load(), 2);
  auto s = find(board, "once");
  EXPECT_EQ(s.phase, phase::running);
  EXPECT_EQ(s.restarts, 1u);
  EXPECT_EQ(s.last_error, "cannot bind port (attempt 1)");
  EXPECT_TRUE(det.idle());
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  det.run();
  EXPECT_EQ(find(board, "once").phase, phase::stopped);
}

TEST(child_supervisor, doubles_the_backoff_after_each_failure) {
  ganglion::test::deterministic_system det;
  status_board board;
  auto spawns = std::make_shared<std::atomic<int>>(0);
  auto root = det.sys().spawn(parent, &board, std::vector{flaky_child("slow", spawns, 2, &board)});
  det.run();
  det.advance(5ms);
  ASSERT_EQ(spawns->load(), 2);
  EXPECT_EQ(det.advance(9ms), 0u) << "the second backoff is 10 ms";
  EXPECT_EQ(spawns->load(), 2);
  EXPECT_EQ(det.advance(1ms), 1u);
  EXPECT_EQ(spawns->load(), 3);
  EXPECT_EQ(find(board, "slow").phase, phase::running);
  EXPECT_EQ(find(board, "slow").restarts, 2u);
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  det.run(); // before `board` goes
}

TEST(child_supervisor, gives_up_after_three_failures_and_siblings_keep_running) {
  ganglion::test::deterministic_system det;
  status_board board;
  auto broken_spawns = std::make_shared<std::atomic<int>>(0);
  auto healthy_spawns = std::make_shared<std::atomic<int>>(0);
  auto root = det.sys().spawn(parent, &board,
                              std::vector{flaky_child("broken", broken_spawns, 1000, &board),
                                          flaky_child("healthy", healthy_spawns, 0, &board)});
  EXPECT_EQ(det.run_timers(), 2u) << "two restarts, then none";
  EXPECT_TRUE(det.idle()) << "no restart is pending";
  EXPECT_EQ(broken_spawns->load(), 3);
  auto broken = find(board, "broken");
  EXPECT_EQ(broken.phase, phase::error);
  EXPECT_EQ(broken.last_error, "cannot bind port (attempt 3)");
  EXPECT_EQ(broken.restarts, 2u);
  EXPECT_EQ(find(board, "healthy").phase, phase::running);
  EXPECT_EQ(healthy_spawns->load(), 1);
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  det.run(); // before `board` goes
}

TEST(child_supervisor, a_final_failure_is_an_error_at_once_with_no_restart_pending) {
  ganglion::test::deterministic_system det;
  status_board board;
  auto spawns = std::make_shared<std::atomic<int>>(0);
  auto root = det.sys().spawn(
    parent, &board, std::vector{flaky_child("gone", spawns, 1, &board, failure_kind::final)});
  EXPECT_EQ(det.run_timers(), 0u) << "no restart";
  EXPECT_TRUE(det.idle());
  EXPECT_EQ(spawns->load(), 1);
  auto gone = find(board, "gone");
  EXPECT_EQ(gone.phase, phase::error);
  EXPECT_EQ(gone.restarts, 0u);
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  det.run(); // before `board` goes
}
