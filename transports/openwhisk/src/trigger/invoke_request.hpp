#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"

namespace ganglion::openwhisk::detail {

/// The fields of an OpenWhiskTrigger that name the action (what parameters may rewrite).
struct action_address {
  std::string host;
  std::string version;
  std::string namespace_;
  std::string action_name;
};

/// The fields of `template.openWhisk` given as JSON text (the core's `resource_json`), with
/// OpenWhisk's defaults for an empty version (`v1`) or namespace (`_`). Throws
/// std::runtime_error when the text is not an object or a field is not a string.
action_address read_address(const std::string& openwhisk_json);

/// Go's `(&url.URL{Path: p}).String()` escaping of an action name: RFC 3986 unreserved
/// characters and `$&+,/:;=@` stay, every other byte becomes `%XX`.
std::string escape_path(const std::string& path);

/// `{host}/api/{version}/namespaces/{namespace}/actions/{actionName}?blocking=true&result=true`,
/// with `https://` before a host that has no scheme (OpenWhisk's GetUrlBase). Throws
/// std::runtime_error when host or actionName is empty.
std::string invoke_url(const action_address& address);

/// The POST of one invocation: `body` as application/json, `Authorization: Basic
/// base64(token)` when `auth_token` is set, OpenWhisk's Go client User-Agent.
http::client_request invoke_request(const action_address& address,
                                    const std::optional<std::string>& auth_token, std::string body);

/// The outcome of an answer: a transfer error or a non-2xx status fails naming the action (and
/// the start of the response body); a 2xx status absent from a non-empty `allow` fails as Argo's
/// status policy does.
core::trigger_outcome judge(const http::client_response& response, const std::string& action,
                            const std::vector<std::int32_t>& allow);

} // namespace ganglion::openwhisk::detail
