#pragma once

// Private: the data of a `nats` event, as Argo's NATSEventData marshals it.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ganglion::nats {

/// Message headers: name → values in arrival order, names sorted (Go marshals maps sorted).
using header_map = std::map<std::string, std::vector<std::string>>;

/// `{"subject":…,"body":…,"header":{…},"metadata":{…}}`. `body` is the payload as JSON
/// (minified) when `json_body`, else base64 of the bytes as Go marshals []byte. `header` and
/// `metadata` are left out when empty (Go's omitempty). nullopt with `error` set when
/// `json_body` is set and the payload is not one JSON document.
std::optional<std::string> nats_event_data(std::string_view subject, std::string_view payload,
                                           const header_map& headers, bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error);

/// Standard base64 with padding (Go's encoding of []byte in JSON).
std::string base64(std::string_view bytes);

} // namespace ganglion::nats
