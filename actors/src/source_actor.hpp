#pragma once

#include <memory>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/source.hpp"
#include "ganglion/core/status.hpp"

namespace ganglion::core {

/// State of a source actor: the running source, destroyed with the actor.
struct source_state {
  std::unique_ptr<source> running;
  static inline const char* name = "ganglion.source";
};

/// One actor per named event of an EventSource: starts the source through its factory, marks
/// it Running once it listens, and fails (for its supervisor to restart) when the factory
/// throws or the source reports a failure.
caf::behavior source_actor(caf::stateful_actor<source_state>* self, source_factory factory,
                           source_context context, status_board* status, std::string status_name);

} // namespace ganglion::core
