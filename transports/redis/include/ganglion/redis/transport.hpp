#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"

namespace ganglion::redis {

/// Settings of the redis transport (the same for every source).
struct options {
  /// How long one TCP connect, TLS handshake and the first commands (AUTH, SELECT, PING) may take.
  std::chrono::milliseconds connect_timeout{2000};
  /// First wait between two reconnection attempts; it doubles up to `max_reconnect_delay`.
  std::chrono::milliseconds min_reconnect_delay{100};
  /// Longest wait between two reconnection attempts.
  std::chrono::milliseconds max_reconnect_delay{5000};
  /// How long the server may stay unreachable before the source fails (the engine restarts it
  /// with backoff, phase Error with the reason).
  std::chrono::milliseconds lost_after{60000};
  /// XREADGROUP's BLOCK (Argo: 2 s).
  std::chrono::milliseconds block{2000};
  /// A Pub/Sub connection silent this long is probed with a PING, and lost when the PING has no
  /// answer within as long again.
  std::chrono::milliseconds ping_interval{30000};
  /// First wait before a stream re-reads the entries the bus refused; doubles up to
  /// `max_reconnect_delay`.
  std::chrono::milliseconds retry_delay{100};
};

/// The `redis` source: SUBSCRIBEs to `channels` and publishes each message as a CloudEvent of
/// type `redis` with Argo's data `{"channel":…,"pattern":"","body":…,"metadata":{…}}`. Pub/Sub
/// cannot redeliver: a message the bus refuses is counted and logged. Returns once subscribed;
/// throws core::source_error when the server does not answer or refuses.
core::source_factory make_source_factory(options opts = {});

/// The `redisStream` source: creates the consumer group on each stream (from `$`, as Argo),
/// reads its pending entries first and then new ones with XREADGROUP, and XACKs an entry only
/// once the bus accepted its event (`{"stream":…,"message_id":…,"values":{…},"metadata":{…}}`);
/// a refused entry stays pending and is read again. Returns once the groups exist; throws
/// core::source_error when the server does not answer or a stream does not exist.
core::source_factory make_stream_source_factory(options opts = {});

/// The redis source's check step: hostAddress and channels, the filter. Reads no secret,
/// connects to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// The redisStream source's check step: hostAddress and streams, the filter.
std::vector<std::string> check_stream_source(const core::source_context& ctx);

/// Registers the `redis` and `redisStream` sources.
void register_transport(core::source_registry& sources, options opts = {});

} // namespace ganglion::redis
