#pragma once

// The amqp kind's model: `spec.amqp.<event>` of an EventSource, as its spec step reads it.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::amqp {

/// `exchangeDeclare`: exchange.declare's flags (Argo's default when absent: durable only).
struct exchange_declare {
  bool durable = true;
  bool auto_delete = false;
  bool internal = false;
  bool no_wait = false;
};

/// `queueDeclare`: queue.declare's flags (Argo's default when absent: a server-named,
/// exclusive, non-durable queue).
struct queue_declare {
  std::string name;
  bool durable = false;
  bool auto_delete = false;
  bool exclusive = true;
  bool no_wait = false;
  /// `x-arguments` as a YAML mapping in a string (`x-queue-type: quorum`).
  std::string arguments;
};

/// `queueBind`.
struct queue_bind {
  bool no_wait = false;
};

/// `consume`: basic.consume's flags. *ganglion*: when `consume` is absent the source
/// acknowledges each message after the bus accepted it (Argo's default is autoAck: true).
struct consume {
  std::string consumer_tag;
  bool auto_ack = false;
  bool exclusive = false;
  bool no_local = false;
  bool no_wait = false;
};

/// `spec.amqp.<event>`: a queue bound to an exchange, consumed into events.
struct event_spec {
  std::string url;
  std::optional<dsl::secret_key_selector> url_secret;
  std::string exchange_name;
  std::string exchange_type;
  std::string routing_key;
  /// Absent: Argo's default (1 s, factor 1, jitter 1, 5 steps).
  std::optional<dsl::backoff> connection_backoff;
  bool json_body = false;
  std::optional<dsl::tls_config> tls;
  std::map<std::string, std::string> metadata;
  /// Each part as the manifest gives it, or Argo's default for the whole part when absent
  /// (a part given keeps Go's zero value for the fields it leaves out).
  exchange_declare exchange;
  queue_declare queue;
  queue_bind bind;
  consume consumer;
  bool consume_given = false; ///< `consume` is in the manifest
  std::optional<dsl::basic_auth> auth;
};

/// The spec step of the amqp source (reads and checks `spec.amqp.<event>` into event_spec).
dsl::kind_spec source_spec_step();

} // namespace ganglion::amqp
