#pragma once

// Private: the data of an `amqp` event, as Argo's AMQPEventData marshals it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <amqp.h>

namespace ganglion::amqp {

/// A delivered message's properties and its basic.deliver exchange and routing key (the
/// strings empty, the numbers 0 when the property is not set, as amqp091-go leaves them).
struct message_fields {
  std::string content_type;
  std::string content_encoding;
  int delivery_mode = 0;
  int priority = 0;
  std::string correlation_id;
  std::string reply_to;
  std::string expiration;
  std::string message_id;
  std::optional<std::int64_t> timestamp; ///< seconds since the epoch
  std::string type;
  std::string app_id;
  std::string exchange;
  std::string routing_key;
};

/// The fields of a librabbitmq envelope (its properties and basic.deliver).
message_fields fields_of(const amqp_envelope_t& envelope);

/// Go's time.Time.String() of a message timestamp in UTC (`2006-01-02 15:04:05 +0000 UTC`);
/// no timestamp is Go's zero time, `0001-01-01 00:00:00 +0000 UTC`.
std::string go_time_string(std::optional<std::int64_t> seconds);

/// `{"contentType":…,…,"routingKey":…,"body":…,"metadata":{…}}`. `body` is the payload as JSON
/// (compacted) when `json_body`, else base64 of the bytes as Go marshals []byte; `metadata` is
/// left out when empty. nullopt with `error` set when `json_body` is set and the payload is not
/// one JSON document.
std::optional<std::string> amqp_event_data(const message_fields& fields, std::string_view body,
                                           bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error);

} // namespace ganglion::amqp
