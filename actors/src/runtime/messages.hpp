#pragma once

// Message types and atoms exchanged between the engine's actors (process-local only).

#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "ganglion/core/event.hpp"
#include "ganglion/core/trigger.hpp"
#include "runtime/sensor_backlog.hpp"
#include "runtime/work_tracker.hpp"

namespace ganglion::core {

/// A batch of events handed from the bus to one sensor.
struct event_batch {
  std::vector<event_ptr> events;
  /// One unit per event, returned to the tracker if the sensor never receives the batch.
  std::shared_ptr<work_ticket> ticket = {};
  /// The batch's place in its sensor's backlog (embedded bus); it leaves once judged.
  std::shared_ptr<sensor_backlog::entry> waiting = {};
};

class unfinished_events;

/// One firing handed from a sensor to its trigger actor.
struct fire_request {
  trigger_invocation invocation;
  /// On the durable bus, for an `atLeastOnce` trigger: where the events go when the trigger
  /// gives up without finishing (they are then delivered again at the next start).
  std::shared_ptr<unfinished_events> unfinished;
  /// The firing's unit, returned to the tracker if the trigger actor never receives it.
  std::shared_ptr<work_ticket> ticket = {};
};

/// An execution's end, reported by the executor's callback to its trigger actor.
struct fire_result {
  std::uint64_t id = 0;
  trigger_outcome outcome;
};

using drain_atom = caf::atom_constant<caf::atom("drain")>;
using restart_atom = caf::atom_constant<caf::atom("restart")>;
using fail_atom = caf::atom_constant<caf::atom("fail")>;
using give_up_atom = caf::atom_constant<caf::atom("giveup")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;
using idle_atom = caf::atom_constant<caf::atom("idle")>;
using retry_atom = caf::atom_constant<caf::atom("retry")>;
using pump_atom = caf::atom_constant<caf::atom("pump")>;
using reset_atom = caf::atom_constant<caf::atom("reset")>;
using commit_atom = caf::atom_constant<caf::atom("commit")>;
using owner_atom = caf::atom_constant<caf::atom("owner")>;
/// A trigger actor to its sensor: it has started and takes firings.
using ready_atom = caf::atom_constant<caf::atom("ready")>;
/// A source to its actor: it delivers now (source_context::connected).
using connected_atom = caf::atom_constant<caf::atom("connected")>;

} // namespace ganglion::core

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::event_batch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::fire_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ganglion::core::fire_result)
