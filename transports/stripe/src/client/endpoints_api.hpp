#pragma once

// Stripe's webhook endpoints API (`/v1/webhook_endpoints`) as stripe-go v70.15 calls it, the
// client Argo's stripe source uses: a Bearer key, `Stripe-Version: 2020-03-02`, form-encoded
// parameters with indexed arrays (`enabled_events[0]=…`).

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::stripe::detail {

/// A webhook endpoint as Stripe describes it (the fields the source reads).
struct endpoint {
  std::string id;
  std::string url;
  std::vector<std::string> enabled_events;
  std::string secret; ///< only in the answer to its creation
};

/// The form body of a creation (`url` set) or an update (`url` empty): stripe-go's encoding,
/// fields in WebhookEndpointParams' order.
std::string endpoint_form(const std::vector<std::string>& enabled_events, const std::string& url);

/// The calls the source makes, blocking: each waits for the shared client.
class endpoints_api {
public:
  /// Calls `api_url` (`https://api.stripe.com`) through `client` with secret key `key`.
  endpoints_api(http::client& client, std::string api_url, std::string key,
                std::chrono::milliseconds timeout);

  /// Every endpoint of the account (all pages of 100); nullopt with `failed` set.
  std::optional<std::vector<endpoint>> list(http::api_answer& failed) const;
  /// Creates the endpoint of `url` for `enabled_events`; nullopt with `failed` set.
  std::optional<endpoint> create(const std::string& url,
                                 const std::vector<std::string>& enabled_events,
                                 http::api_answer& failed) const;
  /// Sets the enabled events of endpoint `id`; nullopt with `failed` set.
  std::optional<endpoint> update(const std::string& id,
                                 const std::vector<std::string>& enabled_events,
                                 http::api_answer& failed) const;

private:
  http::api_answer call(std::string method, std::string path, std::string form) const;

  http::client& client_;
  std::string api_url_;
  std::string key_;
  std::chrono::milliseconds timeout_;
};

} // namespace ganglion::stripe::detail
