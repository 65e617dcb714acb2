#include "client/sns_api.hpp"

namespace ganglion::aws {

namespace {

http::client_request sns_request(const api_endpoint& api, const credentials& keys,
                                 std::string_view action,
                                 std::vector<std::pair<std::string, std::string>> parameters,
                                 std::chrono::milliseconds timeout) {
  return query_request(api, keys, action, "2010-03-31", std::move(parameters), timeout);
}

} // namespace

http::client_request subscribe_request(const api_endpoint& api, const credentials& keys,
                                       const std::string& topic_arn, const std::string& url,
                                       std::chrono::milliseconds timeout) {
  auto protocol = url.find("https://") == std::string::npos ? "http" : "https";
  return sns_request(api, keys, "Subscribe",
                     {{"Endpoint", url}, {"Protocol", protocol}, {"TopicArn", topic_arn}},
                     timeout);
}

http::client_request confirm_request(const api_endpoint& api, const credentials& keys,
                                     const std::string& topic_arn, const std::string& token,
                                     std::chrono::milliseconds timeout) {
  return sns_request(api, keys, "ConfirmSubscription", {{"Token", token}, {"TopicArn", topic_arn}},
                     timeout);
}

http::client_request unsubscribe_request(const api_endpoint& api, const credentials& keys,
                                         const std::string& subscription_arn,
                                         std::chrono::milliseconds timeout) {
  return sns_request(api, keys, "Unsubscribe", {{"SubscriptionArn", subscription_arn}}, timeout);
}

std::string subscription_arn(const http::client_response& reply) {
  return xml_text(reply.body, "SubscriptionArn");
}

bool succeeded(const http::client_response& r) {
  return r.status >= 200 && r.status <= 299;
}

bool refuses_credentials(const http::client_response& r) {
  auto code = read_error(r).code;
  return r.status == 401 || r.status == 403 || code == "AuthorizationError"
         || code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch";
}

} // namespace ganglion::aws
