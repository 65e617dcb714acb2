#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/nats/spec.hpp"

namespace ganglion::nats {

/// Settings of the JetStream bus that do not come from the EventBus manifest.
struct jetstream_options {
  /// Used when the manifest has no URL (`spec.jetstream`, whose servers Argo would deploy).
  std::string default_url = "nats://127.0.0.1:4222";
  /// This replica's id; empty: `<hostname>-<pid>-<random>`.
  std::string replica_id;
  /// Sensors and active-passive sources are divided between replicas in this many shards.
  std::uint32_t shards = 32;
  /// A dead replica's work moves after this long (plus one tick).
  std::chrono::milliseconds lease_ttl{5000};
  std::chrono::milliseconds lease_tick{1000};
  /// How long the server waits for a sensor's acknowledgement before delivering again.
  std::chrono::milliseconds ack_wait{5000};
  /// Unacknowledged events per sensor subscription (the server stops delivering beyond it).
  std::int64_t max_ack_pending = 8192;
  /// Publishes awaiting the server's acknowledgement; beyond it sources are told `saturated`.
  std::int64_t max_pending_publishes = 8192;
  /// How long a publish may wait for the server's acknowledgement before it fails.
  std::chrono::milliseconds publish_timeout{5000};
  /// Events fetched per pull request.
  int fetch_batch = 512;
  /// KV bucket of the sensors' unfinished events.
  std::string state_bucket = "ganglion-state";
  /// KV bucket of the ownership leases.
  std::string owners_bucket = "ganglion-owners";
};

/// Connects to JetStream, creates (or updates) the stream `<stream>` with subjects
/// `<stream>.*.*` and the KV buckets, and returns the bus. Events are published to
/// `<stream>.<eventSourceName>.<eventName>` with the CloudEvent id as `Nats-Msg-Id`; each
/// sensor consumes through durable pull consumers of its own. Throws std::runtime_error when
/// the server cannot be reached or refuses the stream.
std::shared_ptr<core::remote_bus> make_jetstream_bus(const bus_spec& spec,
                                                     std::shared_ptr<const core::secret_store> secrets,
                                                     jetstream_options options = {});

} // namespace ganglion::nats
