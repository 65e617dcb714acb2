#pragma once

// Private: the event data of the sqs source, byte for byte as Argo's json.Marshal of
// SQSEventData writes it.

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ganglion::aws {

/// `{"messageId":…,"messageAttributes":…,"body":…,"metadata":…}` of one message of a
/// ReceiveMessage reply (JSON protocol): `messageAttributes` null when the message has none,
/// each value aws-sdk-go's MessageAttributeValue (`BinaryListValues`, `BinaryValue`, `DataType`,
/// `StringListValues`, `StringValue`, null when absent, binaries base64); `body` the bytes as
/// base64 ([]byte), or with `json_body` the JSON itself. nullopt with `error` set when
/// `json_body` and the body is not JSON.
std::optional<std::string> sqs_event_data(const nlohmann::json& message, bool json_body,
                                          const std::map<std::string, std::string>& metadata,
                                          std::string& error);

} // namespace ganglion::aws
