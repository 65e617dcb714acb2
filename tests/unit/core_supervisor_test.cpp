#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "engine/messages.hpp"
#include "engine/supervisor.hpp"

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

/// A child that fails at start the first `failures` times it is spawned.
child_spec flaky_child(std::string name, std::shared_ptr<std::atomic<int>> spawns, int failures,
                       status_board* board) {
  child_spec spec;
  spec.kind = "source";
  spec.name = name;
  spec.spawn = [=](caf::local_actor* p) {
    int n = ++*spawns;
    return p->spawn<caf::linked>([=](caf::event_based_actor* self) -> caf::behavior {
      if (n <= failures) {
        self->quit(component_failure("cannot bind port (attempt " + std::to_string(n) + ")"));
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

bool wait_until(const std::function<bool()>& predicate) {
  for (int i = 0; i < 500; ++i) {
    if (predicate())
      return true;
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

} // namespace

TEST(child_supervisor, restarts_a_failed_child_with_backoff) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  status_board board;
  auto spawns = std::make_shared<std::atomic<int>>(0);
  auto root = sys.spawn(parent, &board, std::vector{flaky_child("once", spawns, 1, &board)});
  ASSERT_TRUE(wait_until([&] { return spawns->load() == 2; }));
  ASSERT_TRUE(wait_until([&] { return find(board, "once").phase == phase::running; }));
  auto s = find(board, "once");
  EXPECT_EQ(s.restarts, 1u);
  EXPECT_EQ(s.last_error, "cannot bind port (attempt 1)");
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  sys.await_all_actors_done();
  EXPECT_EQ(find(board, "once").phase, phase::stopped);
}

TEST(child_supervisor, gives_up_after_three_failures_and_siblings_keep_running) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  status_board board;
  auto broken_spawns = std::make_shared<std::atomic<int>>(0);
  auto healthy_spawns = std::make_shared<std::atomic<int>>(0);
  auto root = sys.spawn(parent, &board,
                        std::vector{flaky_child("broken", broken_spawns, 1000, &board),
                                    flaky_child("healthy", healthy_spawns, 0, &board)});
  ASSERT_TRUE(wait_until([&] { return find(board, "broken").phase == phase::error; }));
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(broken_spawns->load(), 3);
  auto broken = find(board, "broken");
  EXPECT_EQ(broken.last_error, "cannot bind port (attempt 3)");
  EXPECT_EQ(broken.restarts, 2u);
  EXPECT_EQ(find(board, "healthy").phase, phase::running);
  EXPECT_EQ(healthy_spawns->load(), 1);
  caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  sys.await_all_actors_done();
}
