#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::http::detail {

/// The request fields that trigger parameters may rewrite (`url`, `method`, `headers`,
/// `timeout`, `host` of an HTTPTrigger).
struct request_fields {
  std::string url;
  std::string method;
  std::map<std::string, std::string> headers;
  std::string host;
  std::int64_t timeout_seconds = 0;
};

/// What every request of one trigger shares: the resolved secrets, TLS and status policy.
struct request_template {
  /// The fields of the manifest, before any parameter.
  request_fields fields;
  /// `secureHeaders`, with their values read from the secret store.
  std::vector<std::pair<std::string, std::string>> secure_headers;
  std::optional<std::pair<std::string, std::string>> basic_auth;
  std::optional<client_tls> tls;
  std::vector<std::int32_t> allow;
};

/// Reads the secrets, TLS material and policy of `manifest` (which has `template.http`).
/// Throws core::trigger_error for a missing secret or an unsupported secure header.
request_template make_request_template(const core::trigger_context& ctx);

/// The fields of an HTTPTrigger given as JSON text (`url`, `method`, `headers`, `timeout`,
/// `host`). Throws std::runtime_error when the text is not an object or a field has the wrong type.
request_fields read_request_fields(const std::string& http_json);

/// The request to send: `fields` (the URL must be an absolute http or https URL; the method is
/// upper-cased, POST when empty; the timeout 60 s when not positive) with the secrets of `t`
/// and `body`. Throws std::runtime_error for an empty or invalid URL.
client_request make_request(const request_fields& fields, const request_template& t,
                            std::string body);

/// The request as text: `METHOD URL`, one `Name: value` line per header (secure header values
/// and basic auth as `***`), a blank line, the body.
std::string describe_request(const client_request& request, const request_template& t);

} // namespace ganglion::http::detail
