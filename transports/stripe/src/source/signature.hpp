#pragma once

// Stripe's webhook signatures ("Check the webhook signatures"): `Stripe-Signature` is
// `t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the endpoint's secret>[,…]`.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::stripe::detail {

/// Why `header` fails stripe-go v70's webhook.ValidatePayloadWithTolerance for `body` and
/// `secret`, nullopt when it passes. stripe-go's errors: `webhook has no Stripe-Signature
/// header`, `webhook has invalid Stripe-Signature header` (a part not `k=v`, a `t` not an
/// integer), `timestamp wasn't within tolerance` (older than `tolerance` at `now`; no `t` is
/// the year 1), `webhook had no valid signature` (no `v1` matches; invalid hex ones are
/// skipped). Each `v1` is compared in constant time.
std::optional<std::string> signature_problem(std::string_view header, std::string_view body,
                                             std::string_view secret,
                                             std::chrono::seconds tolerance,
                                             std::chrono::system_clock::time_point now);

} // namespace ganglion::stripe::detail
