#pragma once

// Private: SQS's JSON protocol (AWS JSON 1.0, `X-Amz-Target: AmazonSQS.<Action>`), the one
// aws-sdk-go v1.47 (Argo's) speaks: GetQueueUrl, ReceiveMessage and DeleteMessage.

#include <chrono>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "client/api_call.hpp"

namespace ganglion::aws {

/// Argo's ReceiveMessage: at most this many messages per call.
inline constexpr int receive_batch = 10;
/// Argo's ReceiveMessage VisibilityTimeout, in seconds.
inline constexpr int visibility_timeout_seconds = 120;

/// The request of SQS action `action` with JSON `body`.
http::client_request sqs_request(const api_endpoint& api, const credentials& keys,
                                 std::string_view action, const nlohmann::json& body,
                                 std::chrono::milliseconds timeout);

/// GetQueueUrl's input: `QueueName`, and `QueueOwnerAWSAccountId` when `account` is set.
nlohmann::json get_queue_url_input(const std::string& queue, const std::string& account);

/// ReceiveMessage's input as Argo sends it: 10 messages, visibility 120 s, attribute
/// `SentTimestamp`, every message attribute, `wait_seconds` of long polling.
nlohmann::json receive_message_input(const std::string& queue_url, std::int64_t wait_seconds);

/// DeleteMessage's input.
nlohmann::json delete_message_input(const std::string& queue_url,
                                    const std::string& receipt_handle);

/// The JSON object of a 2xx reply; throws std::runtime_error (describe()) otherwise or when the
/// body is not a JSON object.
nlohmann::json reply_object(const http::client_response& r);

} // namespace ganglion::aws
