#pragma once

// Not installed: the pieces of a webhook event's data, exposed for unit tests.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ganglion/http/server.hpp"

namespace ganglion::http::detail {

/// Go's textproto.CanonicalMIMEHeaderKey: `content-type` → `Content-Type`; names with bytes
/// that are not HTTP token characters are returned unchanged.
std::string canonical_header_key(std::string_view name);

/// Go's url.QueryUnescape: `+` is a space, `%XX` a byte; nullopt on a bad escape.
std::optional<std::string> query_unescape(std::string_view in);

/// Go's url.ParseQuery as JSON (`{"k":["v",…]}`, keys sorted): pairs split on `&`, `+` and
/// `%XX` decoded, pairs with `;` or a bad escape skipped.
std::string query_to_json(std::string_view query);

/// Request headers as Go's http.Header JSON (`{"Content-Type":["application/json"]}`, keys
/// canonical and sorted). `Host` and `Transfer-Encoding` are left out as Go's server does, and
/// an `Authorization` value is masked when `mask_authorization` is set.
std::string headers_to_json(const header_list& headers, bool mask_authorization);

/// The body minified when it is one valid JSON document, or nullopt with `error` set.
std::optional<std::string> validate_json(const std::string& body, std::string& error);

/// True when the Content-Type's media type is application/x-www-form-urlencoded.
bool is_form_content_type(std::string_view content_type);

/// `{"header":…,"body":…,"metadata":{…}}` (metadata left out when empty, as Go's omitempty).
std::string webhook_event_data(const std::string& header_json, const std::string& body_json,
                               const std::map<std::string, std::string>& metadata);

} // namespace ganglion::http::detail
