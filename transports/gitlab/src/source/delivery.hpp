#pragma once

// What Argo's gitlab source makes of one delivery (HandleRoute), as a pure function of the
// request.

#include <map>
#include <string>

#include "ganglion/http/push_source.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::gitlab::detail {

/// What handle_delivery needs from the event's spec.
struct delivery_settings {
  /// `secretToken`'s value; empty: the header is not checked.
  std::string secret_token;
  std::map<std::string, std::string> metadata;
};

/// One delivery: with a secret token, `X-Gitlab-Token` must be it (constant time; else 400
/// `token mismatch`, reason `unauthorized`); the body must be JSON (else 400 `invalid event`,
/// reason `bad_request`) and is published as `{"headers":{…},"body":…,"metadata":{…}}`.
http::push_outcome handle_delivery(const http::request& request, const delivery_settings& settings);

} // namespace ganglion::gitlab::detail
