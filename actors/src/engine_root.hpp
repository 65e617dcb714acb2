#pragma once

#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "supervisor.hpp"

namespace ganglion::core {

/// The children of the engine's root supervisor, in start order.
struct root_plan {
  std::vector<child_spec> children;
  status_board* status = nullptr;
  supervision_policy policy;
};

/// State of the root supervisor.
struct root_state {
  std::unique_ptr<child_supervisor> children;
  static inline const char* name = "ganglion.engine";
};

/// The engine's root: starts the bus, sensors and sources, restarts them when they fail, and
/// stops them all when it receives a user_shutdown exit.
caf::behavior engine_root(caf::stateful_actor<root_state>* self, std::shared_ptr<root_plan> plan);

} // namespace ganglion::core
