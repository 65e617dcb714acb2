#pragma once

// A Google service account's JSON key and the OAuth2 JWT-bearer exchange (RFC 7523) that turns
// it into an access token, as golang.org/x/oauth2/google's JWTConfigFromJSON does.

#include <chrono>
#include <string>
#include <string_view>

namespace ganglion::gcp::detail {

/// The scopes Google's Pub/Sub client asks for (space-separated).
inline constexpr const char* pubsub_scopes =
  "https://www.googleapis.com/auth/pubsub https://www.googleapis.com/auth/cloud-platform";

/// What the exchange needs from a service account's JSON key.
struct service_account {
  std::string client_email;
  std::string private_key; ///< PEM
  std::string private_key_id;
  std::string token_uri; ///< `https://oauth2.googleapis.com/token` when the key has none
};

/// Reads a JSON key (`"type": "service_account"`). Throws std::invalid_argument saying what is
/// missing or wrong; the message never holds the key.
service_account parse_service_account(std::string_view json);

/// Why the assertion may not be sent to `token_uri` (not https, except to a loopback host);
/// empty when it may.
std::string token_uri_problem(std::string_view token_uri);

/// The signed assertion at `now`, as golang.org/x/oauth2/jwt makes it: RS256 with `kid` the
/// key's ID; `iss` the account, `scope` pubsub_scopes, `aud` the token URI, `iat` 10 s before
/// `now`, `exp` an hour after `iat`. Throws dsl::jwt_error.
std::string token_assertion(const service_account& account,
                            std::chrono::system_clock::time_point now);

/// The form body of the token request for `assertion`.
std::string token_request_body(std::string_view assertion);

/// An access token and when it expires.
struct access_token {
  std::string value;
  std::chrono::steady_clock::time_point expires;
};

/// Reads the token endpoint's JSON answer (`access_token`, `expires_in`) received at `now`.
/// Throws std::invalid_argument.
access_token parse_token_response(std::string_view body, std::chrono::steady_clock::time_point now);

} // namespace ganglion::gcp::detail
