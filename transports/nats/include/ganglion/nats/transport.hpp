#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "ganglion/core/bus_kind.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::nats {

/// Settings of the core NATS transport (the same for every source and trigger).
struct options {
  /// Messages a subscription buffers before the client library drops new ones (slow consumer).
  int pending_messages = 10000;
  /// Bytes a subscription buffers before the client library drops new ones.
  int pending_bytes = 64 * 1024 * 1024;
  /// First wait between two reconnection rounds; it doubles up to `max_reconnect_delay`.
  std::chrono::milliseconds min_reconnect_delay{100};
  /// Longest wait between two reconnection rounds.
  std::chrono::milliseconds max_reconnect_delay{5000};
  /// How long one TCP connect (and TLS handshake) may take.
  std::chrono::milliseconds connect_timeout{2000};
  /// How long a trigger waits for the server to confirm it has the published messages.
  std::chrono::milliseconds flush_timeout{5000};
  /// Executions a trigger queues before refusing new ones.
  std::size_t max_queued_publishes = 10000;
};

/// The `nats` source: subscribes to `spec.nats.<event>.subject` (in the `queue` group when one
/// is set) and publishes each message as a CloudEvent of type `nats` with Argo's data
/// `{"subject":…,"body":…,"header":{…},"metadata":{…}}`. Starts even when no server answers
/// (it connects in the background, retrying forever). Throws core::source_error for a spec that
/// cannot run (missing secret, refused credentials, bad filter).
core::source_factory make_source_factory(options opts = {});

/// The nats source's check step (also run when a source starts): the event exists with a url
/// and a subject, and its filter.expression compiles. Reads no secret, connects to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// The `nats` trigger: publishes the payload built from `payload[]` to `subject` (rewritten by
/// template-level `parameters[]` and `nats.parameters[]`), and succeeds once the server confirmed
/// it has the message (a flush round trip). One connection per executor, made on first use.
/// Throws core::trigger_error for a configuration that cannot run (no payload, missing secret).
core::trigger_factory make_trigger_factory(options opts = {});

/// The nats trigger's check step (also run when an executor is created): url, subject and
/// payload given, parameters that compile. Reads no secret, connects to nothing.
std::vector<std::string> check_trigger(const core::trigger_context& ctx);

/// Registers the `nats` source and the `nats` trigger.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

/// Registers the EventBus kinds `jetstream` (the server Argo's controller deploys: reached
/// through --bus-url or, read from the cluster, where the controller put it; from a file
/// without --bus-url the embedded bus runs instead, with a warning), `jetstreamExotic` (a
/// JetStream server of the user's) and `nats` (NATS Streaming, deprecated upstream: `native`
/// runs as the embedded bus with a warning, `exotic` is refused).
void register_bus_kinds(core::bus_registry& buses);

} // namespace ganglion::nats
