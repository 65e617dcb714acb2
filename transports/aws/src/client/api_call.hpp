#pragma once

// Private: one AWS API call, signed with SigV4 by libcurl on the shared HTTP client, and what
// an AWS error reply says.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/credentials.hpp"
#include "ganglion/http/client.hpp"

namespace ganglion::aws {

/// Where one AWS API is, and how its requests are signed.
struct api_endpoint {
  std::string url;     ///< `https://sqs.us-east-1.amazonaws.com`, or the override; no `/` at the end
  std::string region;  ///< the signature's region
  std::string service; ///< the signature's service: `sqs`, `lambda`, `sns`
};

/// The endpoint of `service` in `region`: `configured` when set (`https://` added when it names
/// no scheme, as the SDK does), else AWS's regional endpoint.
api_endpoint make_endpoint(std::string_view configured, std::string_view service,
                           std::string_view region);

/// `text` as one URI path segment in SigV4's encoding: every byte but `A-Z a-z 0-9 - _ . ~` as
/// `%XX`.
std::string uri_encode(std::string_view text);

/// A request to `path` (with its query) of `api`, signed with `keys` (the session token as
/// `X-Amz-Security-Token`, signed too).
http::client_request signed_request(const api_endpoint& api, const credentials& keys,
                                    std::string method, const std::string& path,
                                    std::string body,
                                    std::vector<std::pair<std::string, std::string>> headers,
                                    std::chrono::milliseconds timeout);

/// A signed call of AWS's Query protocol (SNS, STS): `Action=<action>&…&Version=<version>`
/// form-encoded in the order Go's url.Values.Encode writes it (sorted by name), POSTed to `/`.
http::client_request query_request(const api_endpoint& api, const credentials& keys,
                                   std::string_view action, std::string_view version,
                                   std::vector<std::pair<std::string, std::string>> parameters,
                                   std::chrono::milliseconds timeout);

/// What an AWS error reply says.
struct api_error {
  std::string code;    ///< `QueueDoesNotExist`, `ExpiredToken` …; empty when unknown
  std::string message; ///< AWS's message, or the transport error
};

/// The error of `r` (a status other than 2xx, or none): the code from `x-amzn-ErrorType`,
/// `x-amzn-query-error`, the JSON body's `__type` / `code` or the XML body's `<Code>` (the Query
/// protocol's ErrorResponse), the message from its `message` / `<Message>`.
api_error read_error(const http::client_response& r);

/// The text of the first element `<name>` of an AWS XML reply, its five predefined entities
/// decoded; empty when there is none. AWS's replies are flat, known shapes: this reads one leaf,
/// not XML in general (no CDATA, no attributes, no nesting inside `name`).
std::string xml_text(std::string_view xml, std::string_view name);

/// The value of response header `name` (case-insensitive; one client_request::response_headers
/// asked for); empty when absent.
std::string header_value(const http::client_response& r, std::string_view name);

/// `HTTP 400 QueueDoesNotExist: …`, or the transport error when no response came.
std::string describe(const http::client_response& r);

/// Sends `request` on `client` and waits for its response; nullopt when `stopping()` turned
/// true first (the request then completes unseen).
std::optional<http::client_response> call(http::client& client, http::client_request request,
                                          const std::function<bool()>& stopping);

} // namespace ganglion::aws
