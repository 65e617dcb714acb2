#pragma once

// What Argo's github source makes of one delivery (HandleRoute: go-github's ValidatePayload,
// then parseValidateRequest), as a pure function of the request.

#include <map>
#include <string>

#include "ganglion/http/push_source.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::github::detail {

/// What handle_delivery needs from the event's spec.
struct delivery_settings {
  /// `webhookSecret`'s value; empty: signatures are not checked (go-github's rule).
  std::string secret;
  std::map<std::string, std::string> metadata;
};

/// One delivery: the payload is the body (`application/json`) or its `payload` form field
/// (`application/x-www-form-urlencoded`); with a secret, `X-Hub-Signature-256` (else
/// `X-Hub-Signature`; `sha1=`, `sha256=` or `sha512=`) must be the HMAC of the raw body. The
/// payload, a JSON object, gets the keys `X-GitHub-Event` and `X-GitHub-Delivery` (the headers'
/// values) and is published as `{"headers":{…},"body":{…},"metadata":{…}}`. Anything else is
/// refused 400 with go-github's message (reason `signature` or `bad_request`).
http::push_outcome handle_delivery(const http::request& request, const delivery_settings& settings);

} // namespace ganglion::github::detail
