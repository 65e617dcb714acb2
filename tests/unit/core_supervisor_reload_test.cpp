// The supervisor's hot reload operations, driven through the engine's root actor: remove,
// replace (the successor starts only once its predecessor is down), update_spec, reconfigure.
// The actors run on CAF's deterministic scheduler: after run() nothing is left to happen unless
// the test moves the clock, so "not restarted" is checked without sleeping.

#include <atomic>
#include <chrono>
#include <mutex>

#include <gtest/gtest.h>

#include "deterministic_system.hpp"
#include "engine/engine_root.hpp"
#include "runtime/messages.hpp"

using namespace ganglion::core;
using namespace std::chrono_literals;

namespace {

/// What the children of one name did: versions started, handles, and how many hold the
/// name's resource (a port, say) right now.
struct probe {
  std::mutex mutex;
  std::vector<int> versions;
  caf::actor last;
  std::atomic<int> held{0};
  std::atomic<int> conflicts{0};

  std::vector<int> started() {
    std::lock_guard guard{mutex};
    return versions;
  }
  caf::actor handle() {
    std::lock_guard guard{mutex};
    return last;
  }
};

/// Holds its name's resource for as long as the actor's state lives.
struct holder_state {
  std::shared_ptr<probe> p;
  ~holder_state() {
    if (p)
      --p->held;
  }
  static inline const char* name = "test.holder";
};

/// A child of version `version` that answers an int with its version and fails on request; it
/// fails at start `failures_at_start` times.
child_spec holder(const std::string& name, int version, std::shared_ptr<probe> p,
                  status_board* board, int failures_at_start = 0) {
  auto failures = std::make_shared<std::atomic<int>>(failures_at_start);
  child_spec spec;
  spec.kind = "source";
  spec.name = name;
  spec.spawn = [=](caf::local_actor* parent) {
    return parent->spawn<caf::linked>(
      [=](caf::stateful_actor<holder_state>* self) -> caf::behavior {
        if (failures->fetch_sub(1) > 0) {
          self->quit(component_failure("cannot start"));
          return {};
        }
        if (p->held.fetch_add(1) > 0)
          ++p->conflicts;
        self->state.p = p;
        return {
          [=](int) { return version; },
          [=](fail_atom, const std::string& why) { self->quit(component_failure(why)); },
        };
      });
  };
  spec.on_started = [=](const caf::actor& handle) {
    std::lock_guard guard{p->mutex};
    p->versions.push_back(version);
    p->last = handle;
    board->set("source", name, phase::running);
  };
  return spec;
}

component_status find(const status_board& board, const std::string& name) {
  for (auto& c : board.snapshot())
    if (c.name == name)
      return c;
  return {};
}

bool listed(const status_board& board, const std::string& name) {
  for (auto& c : board.snapshot())
    if (c.name == name)
      return true;
  return false;
}

/// An engine root over `children` on a deterministic actor system.
struct fixture {
  ganglion::test::deterministic_system det;
  status_board board;
  caf::actor root;

  explicit fixture(std::vector<child_spec> children) {
    auto plan = std::make_shared<root_plan>();
    plan->children = std::move(children);
    plan->status = &board;
    plan->policy.initial_backoff = 5ms;
    plan->policy.max_backoff = 20ms;
    root = det.sys().spawn(engine_root, plan);
    det.run();
  }

  ~fixture() {
    caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
    det.run(); // the root and its children are gone before `board`
  }

  /// Applies `steps`; true once the root answered.
  bool apply(std::vector<reload_step> steps) {
    auto steps_ptr = std::make_shared<std::vector<reload_step>>(std::move(steps));
    return det.request<bool>(root, true, apply_reload{std::move(steps_ptr)}).has_value();
  }

  /// The version the child answers with; -1 when it does not answer.
  int version_of(const caf::actor& child) {
    return det.request<int>(child, false, 0).value_or(-1);
  }
};

reload_step step(reload_step::action what, const std::string& name, child_spec spec = {}) {
  return reload_step{what, "source", name, std::move(spec), {}};
}

using action = reload_step::action;

} // namespace

TEST(supervisor_reload, remove_stops_the_child_for_good_and_drops_its_status) {
  auto a = std::make_shared<probe>();
  auto b = std::make_shared<probe>();
  fixture f{{}};
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board)),
                       step(action::add, "b", holder("b", 1, b, &f.board))}));
  ASSERT_TRUE(listed(f.board, "a"));
  ASSERT_TRUE(f.apply({step(action::remove, "a")}));
  // The answer comes once the child is down: its state is gone.
  EXPECT_EQ(a->held.load(), 0);
  EXPECT_FALSE(listed(f.board, "a"));
  EXPECT_TRUE(f.det.idle()) << "no restart is pending";
  EXPECT_EQ(a->started().size(), 1u) << "a removed child is not restarted";
  EXPECT_FALSE(listed(f.board, "a"));
  // The root was not taken down by its child's exit: b still answers.
  EXPECT_EQ(f.version_of(b->handle()), 1);
  EXPECT_EQ(find(f.board, "b").phase, phase::running);
}

TEST(supervisor_reload, removing_an_unknown_child_answers_at_once) {
  fixture f{{}};
  f.board.set("source", "gone", phase::error, "not supported");
  ASSERT_TRUE(f.apply({step(action::remove, "gone")}));
  EXPECT_FALSE(listed(f.board, "gone"));
}

TEST(supervisor_reload, replace_starts_the_successor_after_its_predecessor_is_down) {
  fixture f{{}};
  auto a = std::make_shared<probe>();
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board))}));
  auto old = a->handle();
  for (int v = 2; v <= 5; ++v)
    ASSERT_TRUE(f.apply({step(action::replace, "a", holder("a", v, a, &f.board))}));
  EXPECT_EQ(a->started(), (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(f.version_of(a->handle()), 5); // also waits until the successor has initialized
  EXPECT_EQ(a->conflicts.load(), 0) << "a successor started while its predecessor held the port";
  EXPECT_EQ(a->held.load(), 1);
  EXPECT_EQ(f.version_of(old), -1);
  EXPECT_EQ(find(f.board, "a").restarts, 0u) << "a replacement is not a failure";
}

TEST(supervisor_reload, replace_of_an_unknown_child_adds_it) {
  fixture f{{}};
  auto a = std::make_shared<probe>();
  ASSERT_TRUE(f.apply({step(action::replace, "a", holder("a", 7, a, &f.board))}));
  EXPECT_EQ(f.version_of(a->handle()), 7);
}

TEST(supervisor_reload, replace_revives_a_child_in_error) {
  auto a = std::make_shared<probe>();
  fixture f{{}};
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board, 1000))}));
  f.det.run_timers();
  ASSERT_EQ(find(f.board, "a").phase, phase::error);
  ASSERT_TRUE(f.apply({step(action::replace, "a", holder("a", 2, a, &f.board))}));
  ASSERT_EQ(find(f.board, "a").phase, phase::running);
  EXPECT_EQ(f.version_of(a->handle()), 2);
}

TEST(supervisor_reload, a_replaced_child_forgets_the_failures_of_its_predecessor) {
  auto a = std::make_shared<probe>();
  fixture f{{}};
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board, 1000))}));
  f.det.run_timers();
  ASSERT_EQ(find(f.board, "a").phase, phase::error);
  EXPECT_EQ(find(f.board, "a").last_error, "cannot start");
  ASSERT_TRUE(f.apply({step(action::replace, "a", holder("a", 2, a, &f.board))}));
  ASSERT_EQ(find(f.board, "a").phase, phase::running);
  EXPECT_EQ(find(f.board, "a").last_error, "");
  EXPECT_EQ(find(f.board, "a").restarts, 0u);
}

TEST(supervisor_reload, a_restart_after_a_crash_keeps_the_error_until_a_replace) {
  auto a = std::make_shared<probe>();
  fixture f{{}};
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board))}));
  caf::anon_send(a->handle(), fail_atom::value, std::string{"crash"});
  f.det.run();
  EXPECT_EQ(find(f.board, "a").phase, phase::restarting);
  EXPECT_EQ(f.det.advance(5ms), 1u) << "restarted after the 5 ms backoff";
  ASSERT_EQ(a->started().size(), 2u);
  auto restarted = find(f.board, "a");
  EXPECT_EQ(restarted.phase, phase::running);
  EXPECT_EQ(restarted.last_error, "crash") << "why it restarted stays visible";
  EXPECT_EQ(restarted.restarts, 1u);
  ASSERT_TRUE(f.apply({step(action::replace, "a", holder("a", 2, a, &f.board))}));
  EXPECT_EQ(f.version_of(a->handle()), 2);
  auto replaced = find(f.board, "a");
  EXPECT_EQ(replaced.phase, phase::running);
  EXPECT_EQ(replaced.last_error, "");
  EXPECT_EQ(replaced.restarts, 0u);
}

TEST(supervisor_reload, update_spec_applies_at_the_next_restart_only) {
  fixture f{{}};
  auto a = std::make_shared<probe>();
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board))}));
  auto first = a->handle();
  ASSERT_TRUE(f.apply({step(action::update_spec, "a", holder("a", 2, a, &f.board))}));
  EXPECT_TRUE(f.det.idle());
  EXPECT_EQ(a->started(), std::vector<int>{1});
  EXPECT_EQ(f.version_of(first), 1);
  caf::anon_send(first, fail_atom::value, std::string{"crash"});
  f.det.run_timers();
  ASSERT_EQ(a->started().size(), 2u);
  EXPECT_EQ(f.version_of(a->handle()), 2);
  EXPECT_EQ(find(f.board, "a").restarts, 1u);
}

TEST(supervisor_reload, reconfigure_hands_the_running_child_over_and_keeps_it) {
  fixture f{{}};
  auto a = std::make_shared<probe>();
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board))}));
  auto running = a->handle();
  auto notified = std::make_shared<caf::actor>();
  auto s = step(action::reconfigure, "a", holder("a", 2, a, &f.board));
  s.notify = [notified](caf::event_based_actor*, const caf::actor& child) { *notified = child; };
  ASSERT_TRUE(f.apply({std::move(s)}));
  EXPECT_EQ(*notified, running);
  EXPECT_EQ(a->started(), std::vector<int>{1});
  caf::anon_send(running, fail_atom::value, std::string{"crash"});
  f.det.run_timers();
  ASSERT_EQ(a->started().size(), 2u);
  EXPECT_EQ(f.version_of(a->handle()), 2);
}

TEST(supervisor_reload, steps_of_one_reload_apply_together) {
  auto a = std::make_shared<probe>();
  auto b = std::make_shared<probe>();
  auto c = std::make_shared<probe>();
  fixture f{{}};
  ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board)),
                       step(action::add, "b", holder("b", 1, b, &f.board))}));
  ASSERT_TRUE(f.apply({step(action::remove, "a"),
                       step(action::replace, "b", holder("b", 2, b, &f.board)),
                       step(action::add, "c", holder("c", 1, c, &f.board))}));
  EXPECT_EQ(a->held.load(), 0);
  EXPECT_EQ(f.version_of(b->handle()), 2);
  EXPECT_EQ(f.version_of(c->handle()), 1);
  EXPECT_FALSE(listed(f.board, "a"));
  EXPECT_TRUE(listed(f.board, "b"));
  EXPECT_TRUE(listed(f.board, "c"));
}

TEST(supervisor_reload, shutdown_stops_every_child_as_before) {
  auto a = std::make_shared<probe>();
  {
    fixture f{{}};
    ASSERT_TRUE(f.apply({step(action::add, "a", holder("a", 1, a, &f.board))}));
  }
  EXPECT_EQ(a->held.load(), 0);
}
