#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/status.hpp"

namespace ganglion::core {

/// State of a source actor: the running source, destroyed with the actor.
struct source_state {
  std::unique_ptr<source> running;
  /// Active-passive sources on a remote bus: the ownership watch.
  std::shared_ptr<void> owner_watch;
  /// Starts so far; a source_context::connected report names the start it belongs to.
  std::uint64_t starts = 0;
  /// The running source is `Pending` until it reports source_context::connected.
  bool waiting = false;
  static inline const char* name = "ganglion.source";
};

/// One actor per named event of an EventSource: starts the source through its factory, marks
/// it Running once it listens (a factory with `pending_until_connected`: Pending, with what it
/// waits for, until the source reports source_context::connected), and fails (for its
/// supervisor to restart) when the factory throws or the source reports a failure. With `owners` (an active-passive source on a remote
/// bus), the source runs only while this replica owns it and waits in Standby otherwise.
caf::behavior source_actor(caf::stateful_actor<source_state>* self, source_factory factory,
                           source_context context, status_board* status, std::string status_name,
                           ownership* owners = nullptr);

/// Whether a source of `type` runs on one replica at a time (Argo's active-passive types:
/// everything but the webhook-like ones, which every replica serves).
bool is_active_passive(const std::string& type);

} // namespace ganglion::core
