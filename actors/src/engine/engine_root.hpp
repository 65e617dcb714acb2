#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "runtime/supervisor.hpp"

namespace ganglion::core {

/// The children of the engine's root supervisor, in start order.
struct root_plan {
  std::vector<child_spec> children;
  status_board* status = nullptr;
  supervision_policy policy;
};

/// One change of a hot reload to the root's child (kind, name).
struct reload_step {
  enum class action {
    add,         ///< start `spec`
    remove,      ///< stop the child for good (see child_supervisor::remove)
    replace,     ///< stop the child, then start `spec` (see child_supervisor::replace)
    update_spec, ///< later restarts use `spec`; the running child is not touched
    /// update_spec, then `notify` with the running child; a child in phase Error starts with
    /// `spec` at once.
    reconfigure,
  };
  action what = action::add;
  std::string kind;
  std::string name;
  child_spec spec;
  std::function<void(caf::event_based_actor* root, const caf::actor& child)> notify;
};

/// A hot reload's steps, applied in order within one message of the root. The root answers
/// `true` once every removed child is down and every replaced one has been started again.
struct apply_reload {
  std::shared_ptr<std::vector<reload_step>> steps;
};

/// State of the root supervisor.
struct root_state {
  std::unique_ptr<child_supervisor> children;
  /// Set on shutdown: the root quits with this reason once its last child is down.
  std::optional<caf::error> stopping;
  static inline const char* name = "ganglion.engine";
};

/// The engine's root: starts the bus, sensors and sources, restarts them when they fail,
/// applies hot reloads, and stops them all when it receives a user_shutdown exit.
caf::behavior engine_root(caf::stateful_actor<root_state>* self, std::shared_ptr<root_plan> plan);

} // namespace ganglion::core

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::apply_reload)
