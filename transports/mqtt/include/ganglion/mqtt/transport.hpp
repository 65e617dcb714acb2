#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::mqtt {

/// Settings of the mqtt transport (the same for every source).
struct options {
  /// MQTT keep-alive (paho's default, Argo's client: 30 s).
  int keepalive_seconds = 30;
  /// How long a connection may take to be acknowledged by the broker (CONNACK).
  std::chrono::milliseconds connect_timeout{5000};
  /// First wait before reconnecting after a lost connection; it doubles up to the maximum.
  std::chrono::milliseconds min_reconnect_delay{100};
  /// Longest wait between two reconnection attempts.
  std::chrono::milliseconds max_reconnect_delay{5000};
};

/// The `mqtt` source: subscribes to `spec.mqtt.<event>.topic` with QoS 0 (as Argo) and a clean
/// session under `clientId`, and publishes each message as a CloudEvent of type `mqtt` with
/// Argo's data `{"topic":…,"messageId":…,"body":…,"metadata":{…}}`. It connects in the
/// background (Pending until subscribed); the first connection gets the attempts of
/// `connectionBackoff`, after a loss it reconnects forever. Fails (the engine restarts it) when
/// the first connection cannot be made or the broker refuses the client or the subscription.
/// Throws core::source_error for a spec that cannot run (missing secret, bad url or filter).
core::source_factory make_source_factory(options opts = {});

/// The mqtt source's check step (also run when a source starts): url (a scheme libmosquitto
/// speaks, a port), topic and clientId given, filter.expression compiles. Reads no secret,
/// connects to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `mqtt` source.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

} // namespace ganglion::mqtt
