#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/kafka/spec.hpp"

namespace ganglion::kafka::detail {

/// The fields of a KafkaTrigger that parameters may change per message. (`url`, `requiredAcks`,
/// `compress`, TLS and SASL configure the trigger's one producer and are read once, as Argo
/// caches its producer per trigger.)
struct message_fields {
  std::string topic;
  std::string key; ///< `partitioningKey`; empty: no key
  std::optional<std::int32_t> partition;
  std::map<std::string, std::string> headers;
};

/// One message to produce.
struct message {
  message_fields fields;
  /// `headers` then `secureHeaders`, in that order.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string payload;
};

/// The trigger's fields as the manifest gives them.
message_fields fields_of(const trigger_spec& spec);

/// The per-message fields of a KafkaTrigger given as JSON text. Throws std::runtime_error when
/// the text is not an object or a field has the wrong type.
message_fields read_message_fields(const std::string& kafka_json);

/// `fields` with `secure_headers` appended and `payload`; throws std::runtime_error for an
/// empty topic or a negative partition.
message make_message(message_fields fields,
                     const std::vector<std::pair<std::string, std::string>>& secure_headers,
                     std::string payload);

/// The message as text: `kafka <topic> partition <p|any>`, `key: …`, one `Name: value` line per
/// header (secure header values as `***`), a blank line, the payload.
std::string describe(const message& m, std::size_t secure_count);

} // namespace ganglion::kafka::detail
