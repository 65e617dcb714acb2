#pragma once

// The nats kinds' models: `spec.nats.<event>` of an EventSource, `template.nats` of a trigger
// and an EventBus's `spec.jetstream`, `spec.jetstreamExotic` and `spec.nats`, as their spec
// steps read them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::nats {

/// `auth` of a NATS client (one of them).
struct auth_spec {
  std::optional<dsl::basic_auth> basic;
  std::optional<dsl::secret_key_selector> token;
  std::optional<dsl::secret_key_selector> nkey;       ///< an nkey seed
  std::optional<dsl::secret_key_selector> credential; ///< a `.creds` file (JWT + seed)
};

/// `spec.nats.<event>`: a core NATS subject, optionally in a queue group.
struct event_spec {
  std::string url;
  std::string subject;
  std::string queue;
  bool json_body = false;
  std::optional<dsl::tls_config> tls;
  std::optional<auth_spec> auth;
  std::map<std::string, std::string> metadata;
};

/// `template.nats`: publish a message per firing (its `parameters` and `payload` are the
/// core's: dsl::trigger_action).
struct trigger_spec {
  std::string url;
  std::string subject;
  std::optional<dsl::tls_config> tls;
  std::optional<auth_spec> auth;
};

/// The spec step of the nats source (reads and checks `spec.nats.<event>` into event_spec).
dsl::kind_spec source_spec_step();

/// The spec step of the nats trigger (reads and checks `template.nats` into trigger_spec).
dsl::kind_spec trigger_spec_step();

/// The settings of the JetStream stream that carries the events (`streamConfig`; ganglion's
/// defaults differ from Argo's where Argo's can lose accepted events, see docs/buses.md).
struct stream_settings {
  std::int32_t replicas = 1;
  std::int64_t max_msgs = -1;
  std::int64_t max_age_ns = 168ll * 3600 * 1000000000; ///< 168h
  std::int64_t max_bytes = -1;
  std::int64_t duplicates_ns = 300ll * 1000000000; ///< the Nats-Msg-Id dedup window, 300s
  std::string retention = "limits";                ///< limits | interest | workqueue
  std::string discard = "new";                     ///< new (refuse when full) | old
};

/// An EventBus `spec.jetstream` (a server Argo's controller deploys) or `spec.jetstreamExotic`
/// (a server of the user's): a NATS JetStream bus.
struct bus_spec {
  /// `spec.jetstream`: the server is Argo's controller's; `spec.jetstreamExotic`: the `url`'s.
  bool managed = false;
  /// Server URL(s), comma-separated. `spec.jetstream` has none: `--bus-url` or, read from the
  /// cluster, the server Argo's controller deployed gives it.
  std::string url;
  /// `accessSecret`: `username`/`password` (YAML, as Argo writes it) or a bare token.
  std::optional<dsl::secret_key_selector> access_secret;
  std::optional<dsl::tls_config> tls;
  stream_settings stream;
  std::string stream_name = "default"; ///< Argo's stream name; subjects `<stream>.<source>.<event>`
  std::int64_t max_payload = 1048576;
  /// `spec.jetstream.version` and `replicas`: what Argo's controller would deploy (checked only).
  std::string version;
  std::optional<std::int64_t> replicas;
};

/// An EventBus `spec.nats`: NATS Streaming, deprecated upstream; ganglion reads and checks it
/// and runs the embedded bus for `native` (a warning) and refuses `exotic`.
struct streaming_bus_spec {
  bool native = false;
  bool exotic = false;
  bool exotic_cluster_id = false; ///< `exotic.clusterID` is given
  std::string exotic_url;
};

/// The spec step of the EventBus `spec.jetstream` (into bus_spec, `managed` set).
dsl::kind_spec jetstream_bus_spec_step();

/// The spec step of the EventBus `spec.jetstreamExotic` (into bus_spec).
dsl::kind_spec jetstream_exotic_bus_spec_step();

/// The spec step of the EventBus `spec.nats` (into streaming_bus_spec).
dsl::kind_spec streaming_bus_spec_step();

} // namespace ganglion::nats
