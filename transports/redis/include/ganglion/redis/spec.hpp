#pragma once

// The redis kinds' models: `spec.redis.<event>` (Pub/Sub channels) and
// `spec.redisStream.<event>` (streams read through a consumer group) of an EventSource, as their
// spec steps read them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::redis {

/// What both kinds share: the server, its authentication and TLS, and the event's metadata.
struct server_spec {
  std::string host_address; ///< `host:port`
  std::optional<dsl::secret_key_selector> password;
  std::string username; ///< ACL user (Redis 6+); sent only with a password, as go-redis does
  std::int64_t db = 0;
  std::optional<dsl::tls_config> tls;
  std::map<std::string, std::string> metadata;
};

/// `spec.redis.<event>`: SUBSCRIBE to `channels` (names, not patterns: Argo subscribes).
struct event_spec : server_spec {
  std::string namespace_name; ///< `namespace`: required with `password`, otherwise unused
  std::vector<std::string> channels;
  bool json_body = false;
};

/// The consumer group Argo creates when `consumerGroup` is not given.
inline constexpr const char* default_consumer_group = "argo-events-cg";
/// The consumer name Argo reads with (one consumer per group).
inline constexpr const char* consumer_name = "argo-events-worker";

/// `spec.redisStream.<event>`: XREADGROUP on `streams` through one consumer group.
struct stream_spec : server_spec {
  std::vector<std::string> streams;
  std::int64_t max_msg_count_per_read = 0; ///< 0: Argo's 10
  std::string consumer_group;              ///< empty: `argo-events-cg`

  /// The COUNT of each XREADGROUP (per stream).
  std::int64_t count() const { return max_msg_count_per_read > 0 ? max_msg_count_per_read : 10; }
  /// The consumer group read through.
  std::string group() const {
    return consumer_group.empty() ? default_consumer_group : consumer_group;
  }
};

/// The spec step of the `redis` source (reads and checks `spec.redis.<event>` into event_spec).
dsl::kind_spec source_spec_step();

/// The spec step of the `redisStream` source (reads and checks `spec.redisStream.<event>` into
/// stream_spec).
dsl::kind_spec stream_spec_step();

} // namespace ganglion::redis
