#include "client/sqs_api.hpp"

#include <stdexcept>

namespace ganglion::aws {

http::client_request sqs_request(const api_endpoint& api, const credentials& keys,
                                 std::string_view action, const nlohmann::json& body,
                                 std::chrono::milliseconds timeout) {
  return signed_request(api, keys, "POST", "/", body.dump(),
                        {{"Content-Type", "application/x-amz-json-1.0"},
                         {"X-Amz-Target", "AmazonSQS." + std::string(action)}},
                        timeout);
}

nlohmann::json get_queue_url_input(const std::string& queue, const std::string& account) {
  nlohmann::json in{{"QueueName", queue}};
  if (!account.empty())
    in["QueueOwnerAWSAccountId"] = account;
  return in;
}

nlohmann::json receive_message_input(const std::string& queue_url, std::int64_t wait_seconds) {
  return {{"AttributeNames", {"SentTimestamp"}},
          {"MaxNumberOfMessages", receive_batch},
          {"MessageAttributeNames", {"All"}},
          {"QueueUrl", queue_url},
          {"VisibilityTimeout", visibility_timeout_seconds},
          {"WaitTimeSeconds", wait_seconds}};
}

nlohmann::json delete_message_input(const std::string& queue_url,
                                    const std::string& receipt_handle) {
  return {{"QueueUrl", queue_url}, {"ReceiptHandle", receipt_handle}};
}

nlohmann::json reply_object(const http::client_response& r) {
  if (r.status < 200 || r.status > 299)
    throw std::runtime_error(describe(r));
  auto body = nlohmann::json::parse(r.body, nullptr, false);
  if (!body.is_object())
    throw std::runtime_error("HTTP " + std::to_string(r.status)
                             + ": the reply is not a JSON object");
  return body;
}

} // namespace ganglion::aws
