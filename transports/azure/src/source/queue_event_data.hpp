#pragma once

// Private: the event data of the azureQueueStorage source, byte for byte as Argo's
// json.Marshal of AzureQueueStorageEventData writes it.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "client/queue_xml.hpp"

namespace ganglion::azure::detail {

/// How a message becomes event data (the spec's fields that shape it).
struct queue_data_options {
  bool json_body = false;
  bool decode_message = false;
  std::map<std::string, std::string> metadata;
};

/// Argo's safeBase64Decode: Go's base64.URLEncoding, else base64.StdEncoding (padding required,
/// `\r` and `\n` ignored). nullopt with `error` set (Go's `illegal base64 data at input byte N`)
/// when neither reads `text`.
std::optional<std::string> go_safe_base64_decode(std::string_view text, std::string& error);

/// `{"body":…,"messageID":…,"insertionTime":…,"metadata":…}`: the body the message text (with
/// `decode_message` base64-decoded first) as a []byte, base64, or with `json_body` the JSON
/// itself (json.RawMessage: compacted, HTML-escaped); `metadata` left out when empty. nullopt
/// with `error` set when the text is not base64 (`decode_message`) or the body is not JSON
/// (`json_body`): Argo's "failed to base64 decode message" and marshal failures.
std::optional<std::string> queue_event_data(const queue_message& message,
                                            const queue_data_options& options,
                                            std::string& error);

} // namespace ganglion::azure::detail
