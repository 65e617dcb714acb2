#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// A webhook endpoint the stand-in holds.
struct stripe_endpoint {
  std::string id;
  std::string url;
  std::vector<std::string> enabled_events;
  std::string secret;
};

/// The `Stripe-Signature` header value Stripe sends with `body` at unix time `t` for an endpoint
/// whose signing secret is `secret`: `t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (OpenSSL's
/// HMAC, not the engine's).
std::string stripe_signature(const std::string& secret, const std::string& body, std::int64_t t);

/// A stand-in for Stripe's webhook endpoints API (stripe.com/docs/api/webhook_endpoints), not
/// Stripe itself: on 127.0.0.1 it answers the calls a stripe source makes, as Stripe does:
/// - `GET /v1/webhook_endpoints?limit=N[&starting_after=<id>]`: a list object (`data`,
///   `has_more`) of N at most, oldest first;
/// - `POST /v1/webhook_endpoints` with a form body `url=…&enabled_events[i]=…`: creates one
///   (`we_…`, a `whsec_…` secret shown only in this answer); without url or enabled_events,
///   400 with Stripe's `Missing required param` error;
/// - `POST /v1/webhook_endpoints/<id>` with `enabled_events[i]`: sets them (404 when unknown).
/// Every call needs `Authorization: Bearer <key>` (else 401 with Stripe's error object); other
/// paths are 404; while set_down, every call is 503. Not emulated: the other parameters,
/// idempotency keys, rate limits, API versions.
class stripe_api {
public:
  /// Serves secret key `key`.
  explicit stripe_api(std::string key);
  ~stripe_api();
  stripe_api(const stripe_api&) = delete;
  stripe_api& operator=(const stripe_api&) = delete;

  /// `http://127.0.0.1:<port>`.
  std::string base_url() const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// The endpoints held, oldest first.
  std::vector<stripe_endpoint> endpoints() const;
  /// Adds an endpoint as if made earlier; returns its ID.
  std::string put_endpoint(const std::string& url, std::vector<std::string> enabled_events);
  /// While `down`, every call is answered 503.
  void set_down(bool down);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
