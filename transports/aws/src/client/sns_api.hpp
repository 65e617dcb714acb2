#pragma once

// Private: SNS's Query API as aws-sdk-go v1 speaks it (a SigV4-signed form POST to `/`, an XML
// reply): the Subscribe, ConfirmSubscription and Unsubscribe calls of the sns source.

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/api_call.hpp"

namespace ganglion::aws {

/// Argo's Subscribe: topic `topic_arn`, endpoint `url`, protocol `https` when `url` holds
/// `https://` anywhere (Argo's unanchored pattern), else `http`.
http::client_request subscribe_request(const api_endpoint& api, const credentials& keys,
                                       const std::string& topic_arn, const std::string& url,
                                       std::chrono::milliseconds timeout);

/// Argo's ConfirmSubscription with the Token of a SubscriptionConfirmation.
http::client_request confirm_request(const api_endpoint& api, const credentials& keys,
                                     const std::string& topic_arn, const std::string& token,
                                     std::chrono::milliseconds timeout);

/// Argo's Unsubscribe of `subscription_arn`.
http::client_request unsubscribe_request(const api_endpoint& api, const credentials& keys,
                                         const std::string& subscription_arn,
                                         std::chrono::milliseconds timeout);

/// The `SubscriptionArn` of a Subscribe or ConfirmSubscription reply (`pending confirmation`
/// for a Subscribe SNS has yet to confirm); empty when the reply has none.
std::string subscription_arn(const http::client_response& reply);

/// Whether `r` is a 2xx reply.
bool succeeded(const http::client_response& r);

/// Whether `r` says the credentials may not do this (retrying will not help).
bool refuses_credentials(const http::client_response& r);

} // namespace ganglion::aws
