#pragma once

// The mqtt kind's model: `spec.mqtt.<event>` of an EventSource, as its spec step reads it.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::mqtt {

/// `spec.mqtt.<event>`: one MQTT topic filter (wildcards `+` and `#` allowed), subscribed with
/// QoS 0 as Argo does.
struct event_spec {
  std::string url;       ///< `tcp://host:port`, `ssl://…`, `tls://…`, `mqtt://…`, `mqtts://…`
  std::string topic;     ///< a topic filter
  std::string client_id; ///< `clientId`: the MQTT client identifier (clean session)
  /// `connectionBackoff`: the attempts of the first connection (Argo's DoWithRetry; absent:
  /// 5 attempts 1 s apart with jitter 1).
  std::optional<dsl::backoff> connection_backoff;
  bool json_body = false;
  std::optional<dsl::tls_config> tls;
  std::optional<dsl::basic_auth> auth; ///< `auth.username` / `auth.password` secrets
  std::map<std::string, std::string> metadata;
};

/// The spec step of the mqtt source (reads and checks `spec.mqtt.<event>` into event_spec).
dsl::kind_spec source_spec_step();

} // namespace ganglion::mqtt
