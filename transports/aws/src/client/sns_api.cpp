#include "client/sns_api.hpp"

#include <algorithm>

#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::aws {

http::client_request sns_request(const api_endpoint& api, const credentials& keys,
                                 std::string_view action, sns_parameters parameters,
                                 std::chrono::milliseconds timeout) {
  parameters.emplace_back("Action", std::string(action));
  parameters.emplace_back("Version", "2010-03-31");
  std::sort(parameters.begin(), parameters.end());
  std::string body;
  for (const auto& [name, value] : parameters) {
    if (!body.empty())
      body += '&';
    body += http::query_escape(name) + "=" + http::query_escape(value);
  }
  return signed_request(api, keys, "POST", "/", std::move(body),
                        {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}},
                        timeout);
}

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
