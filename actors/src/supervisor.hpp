#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "ganglion/core/status.hpp"

namespace ganglion::core {

/// When to give up on a failing child, and how long to wait between restarts.
struct supervision_policy {
  std::uint32_t max_failures = 3;
  std::chrono::milliseconds window{60000};
  std::chrono::milliseconds initial_backoff{200};
  std::chrono::milliseconds max_backoff{10000};
};

/// How to (re)start one child.
struct child_spec {
  std::string kind; ///< status kind: source | sensor | trigger | bus
  std::string name; ///< status name
  /// Spawns the child; the supervisor monitors it.
  std::function<caf::actor(caf::local_actor* parent)> spawn;
  /// Called after every (re)start with the new handle.
  std::function<void(const caf::actor&)> on_started;
  /// Called when the child stays down in phase Error.
  std::function<void()> on_given_up;
};

/// Restart logic for the children of one actor: a failed child is restarted after an
/// exponential backoff; after `max_failures` failures within `window` it stays in phase Error
/// with its last error, and its siblings keep running.
class child_supervisor {
public:
  child_supervisor(caf::event_based_actor* self, status_board& status, supervision_policy policy);

  /// Starts a child and returns its index.
  std::size_t add(child_spec spec);

  /// Handles a child's down message; false when the actor is not one of the children.
  bool handle_down(const caf::down_msg& msg);

  /// Handles the delayed restart message of child `index`.
  void handle_restart(std::size_t index);

  /// Asks every child to exit; they then count as stopped, not failed.
  void stop_all();

  /// The current handle of child `index` (invalid while down).
  const caf::actor& child(std::size_t index) const { return children_[index].handle; }

  /// Number of children still alive.
  std::size_t alive() const noexcept;

  /// The text of an exit reason: the message given to make_error, else CAF's rendering.
  static std::string describe(caf::actor_system& sys, const caf::error& reason);

private:
  struct entry {
    child_spec spec;
    caf::actor handle;
    std::deque<std::chrono::steady_clock::time_point> failures;
    bool given_up = false;
  };

  void start(std::size_t index);

  caf::event_based_actor* self_;
  status_board& status_;
  supervision_policy policy_;
  std::vector<entry> children_;
  bool stopping_ = false;
};

/// Exit reason for a component failure with a human-readable message.
caf::error component_failure(std::string message);

} // namespace ganglion::core
