#pragma once

// Slack's request signatures ("Verifying requests from Slack"): `X-Slack-Signature` is `v0=` and
// the hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<body>` under the app's signing secret.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::slack::detail {

/// How far a request's timestamp may be from now (slack-go's SecretsVerifier: 5 minutes).
inline constexpr std::chrono::seconds signature_window{300};

/// Why a signed request fails slack-go's NewSecretsVerifier + Ensure, nullopt when it passes:
/// `missing headers` (either header empty), `invalid timestamp`, `timestamp is too old` (more
/// than signature_window from `now`, either way), `signature validation failed`. The signature
/// is compared in constant time.
std::optional<std::string> signature_problem(std::string_view signature, std::string_view timestamp,
                                             std::string_view body, std::string_view secret,
                                             std::chrono::system_clock::time_point now);

} // namespace ganglion::slack::detail
