#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
/// exponential backoff (its status keeps the last error and counts the restart); after
/// `max_failures` failures within `window` it stays in phase Error with its last error, and its
/// siblings keep running. A child added or replaced starts with no error and no restarts.
/// Children are addressed by index (stable for the child's life, also across replace) or by
/// (kind, name); a hot reload removes, replaces or re-specs them one by one.
class child_supervisor {
public:
  /// Called when a remove or replace has taken effect.
  using done_callback = std::function<void()>;

  child_supervisor(caf::event_based_actor* self, status_board& status, supervision_policy policy);

  /// Starts a child and returns its index.
  std::size_t add(child_spec spec);

  /// The index of child (kind, name); nullopt when there is none (or it is being removed).
  std::optional<std::size_t> find(const std::string& kind, const std::string& name) const;

  /// Stops child (kind, name) for good: it is not restarted, its status entry goes now, and
  /// `done` runs once it is down (at once when it is not running). False when there is no
  /// such child (its status entry is removed all the same).
  bool remove(const std::string& kind, const std::string& name, done_callback done = {});

  /// Stops child (kind, name) and starts `spec` in its place once the old one is down — so a
  /// resource the old one holds (a port, an endpoint) is free for the new one. A child that is
  /// not running (restarting, or given up in phase Error) starts with `spec` at once, its
  /// failure count cleared. `done` runs once the new child was started. False when there was
  /// no such child: `spec` is added instead.
  bool replace(const std::string& kind, const std::string& name, child_spec spec,
               done_callback done = {});

  /// Starts child (kind, name) again with its own spec, its failures cleared: at once when it
  /// is down (given up in phase Error, or waiting for its backoff), else once the running one
  /// has stopped. False when there is no such child.
  bool restart(const std::string& kind, const std::string& name);

  /// Later (re)starts of child (kind, name) use `spec`; the running child is not touched.
  /// False when there is no such child.
  bool update_spec(const std::string& kind, const std::string& name, child_spec spec);

  /// Handles a child's down message; false when the actor is not one of the children.
  bool handle_down(const caf::down_msg& msg);

  /// Handles the delayed restart message of child `index`.
  void handle_restart(std::size_t index);

  /// Asks every child to exit; they then count as stopped, not failed.
  void stop_all();

  /// The current handle of child `index`: invalid while it is down or stopping (removed, or
  /// waiting to be replaced), and when there is no such child.
  const caf::actor& child(std::size_t index) const;

  /// True when child `index` failed too often and stays down.
  bool given_up(std::size_t index) const;

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
    /// Stopping for good; erased once down.
    bool removing = false;
    /// Started in place of this child once it is down.
    std::optional<child_spec> next;
    /// Run when a pending remove or replace has taken effect.
    std::vector<done_callback> done;
  };

  using key = std::pair<std::string, std::string>;

  void start(std::size_t index);
  /// Starts a new version of child `index`: its status forgets the failures of the old one.
  void start_fresh(std::size_t index);
  /// Asks a running child to exit without taking this actor down with it.
  void stop(entry& c);
  static void settle(entry& c);
  entry* lookup(const std::string& kind, const std::string& name);

  caf::event_based_actor* self_;
  status_board& status_;
  supervision_policy policy_;
  std::map<std::size_t, entry> children_;
  std::map<key, std::size_t> by_name_;
  std::size_t next_index_ = 0;
  bool stopping_ = false;
};

/// Whether the supervisor may restart a failed child.
enum class failure_kind {
  restartable, ///< restart with backoff (until too many failures)
  final,       ///< phase Error at once, until restarted by hand or by a reload
};

/// Exit reason for a component failure with a human-readable message.
caf::error component_failure(std::string message,
                             failure_kind kind = failure_kind::restartable);

} // namespace ganglion::core
