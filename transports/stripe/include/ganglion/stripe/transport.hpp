#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::stripe {

/// Settings of the stripe transport (the same for every source).
struct options {
  /// Stripe's API root (`--stripe-api-url`; tests point it at a local stand-in).
  std::string api_url = "https://api.stripe.com";
  /// How long one call to Stripe's API may take.
  std::chrono::milliseconds request_timeout{10000};
  /// First wait after a failed registration; doubles up to `max_retry`.
  std::chrono::milliseconds first_retry{1000};
  /// Longest wait between two failed registrations.
  std::chrono::milliseconds max_retry{30000};
  /// Failed registrations in a row after which the source fails (phase Error, restarted with
  /// backoff); a key Stripe refuses (401, 403) fails it at once.
  int attempts = 5;
  /// How old a `Stripe-Signature` timestamp may be (stripe-go's DefaultTolerance).
  std::chrono::seconds tolerance{300};
};

/// `--stripe-api-url` (run, test): the API root createWebhook calls.
core::command_options command_options();

/// The options the command line gave (`--stripe-api-url`, trailing `/` dropped).
options options_from(const core::option_values& values);

/// The `stripe` source: serves `webhook` through the http transport (as the webhook source,
/// `run --listen` included) and publishes each Stripe event that passes `eventFilter` as a
/// CloudEvent of type `stripe` with Argo's data `{"event":{…},"metadata":{…}}` (stripe-go's
/// Event re-marshalled). With `createWebhook` it finds the endpoint of `webhook.url` at Stripe,
/// or creates it, off the server threads; an endpoint it created has its signing secret, and
/// then every request's `Stripe-Signature` is checked (tolerance, constant time).
core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts = {});

/// The stripe source's check step: apiKey given with createWebhook. Reads no secret, connects
/// to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `stripe` source on `rt`'s server pool and client.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::stripe
