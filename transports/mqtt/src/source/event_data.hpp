#pragma once

// Private: the data of an `mqtt` event, as Argo's MQTTEventData marshals it.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::mqtt {

/// `{"topic":…,"messageId":…,"body":…,"metadata":{…}}`. `body` is the payload as JSON
/// (minified, as Go marshals a json.RawMessage) when `json_body`, else base64 of the bytes as
/// Go marshals []byte. `metadata` is left out when empty (omitempty). nullopt with `error` set
/// when `json_body` is set and the payload is not one JSON document (Argo's marshal fails and
/// the message is dropped).
std::optional<std::string> mqtt_event_data(std::string_view topic, int message_id,
                                           std::string_view payload, bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error);

} // namespace ganglion::mqtt
