#pragma once

// The pubSub event's data, byte for byte as Argo marshals events.PubSubEventData, and the
// subscription ID Argo derives when `subscriptionID` is empty.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ganglion/gcp/spec.hpp"

namespace ganglion::gcp::detail {

/// One message of a `:pull` answer.
struct received_message {
  std::string ack_id;
  std::string id;           ///< `messageId`
  std::string data;         ///< the decoded bytes of `data`
  std::string publish_time; ///< RFC 3339 (`2024-05-01T10:20:30.123Z`); empty: none
  std::map<std::string, std::string> attributes;
};

/// Go's `time.Time.String()` in UTC of an RFC 3339 time (the protobuf JSON of a Timestamp):
/// `2024-05-01 10:20:30.123 +0000 UTC`; Go's zero time for an empty or unreadable one.
std::string go_publish_time(std::string_view rfc3339);

/// `{"id":…,"body":…,"attributes":…,"publishTime":…,"metadata":{…}}`: `body` the bytes as
/// base64 (a Go []byte), or with `json_body` the bytes as JSON (`null` when empty);
/// `attributes` `null` when there are none (a nil Go map); `metadata` left out when empty.
/// nullopt with `error` set when `json_body` and the bytes are not JSON (Argo nacks it).
std::optional<std::string> pubsub_event_data(const received_message& message, bool json_body,
                                             const std::map<std::string, std::string>& metadata,
                                             std::string& error);

/// The subscription ID: `subscriptionID`, else Argo's `<event>-<fnv32a(event + json)>` where
/// json is Argo's json.Marshal of the PubSubEventSource after its defaults (`projectID`, and
/// `topicProjectID` with a topic) with `filter_expression` as its `filter`.
std::string subscription_id(const event_spec& spec, std::string_view event_name,
                            const std::optional<std::string>& filter_expression);

} // namespace ganglion::gcp::detail
