#pragma once

// go-github's ValidateSignature: the `X-Hub-Signature-256` (or `X-Hub-Signature`) header checked
// against the HMAC of the raw body with the webhook secret.

#include <string>
#include <string_view>

namespace ganglion::github::detail {

/// `<algorithm>=<hex>` of HMAC-`algorithm`(`secret`, `body`), algorithm one of `sha1`,
/// `sha256`, `sha512`; empty for another algorithm.
std::string sign(std::string_view algorithm, std::string_view secret, std::string_view body);

/// Why `signature` (a header's value) does not sign `body` with `secret`, with go-github's
/// message (`missing signature`, `payload signature check failed` …); empty when it does. The
/// MACs are compared in constant time.
std::string signature_problem(std::string_view signature, std::string_view body,
                              std::string_view secret);

} // namespace ganglion::github::detail
