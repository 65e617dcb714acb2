#pragma once

// Private: the data of a generic source's event (Argo's GenericEventData).

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::grpc::detail {

/// `{"body":…,"metadata":{…}}` as Argo's json.Marshal writes it: the payload as raw JSON with
/// `json_body` (compacted; nullopt with `error` when it is not JSON), else as base64; an empty
/// payload is `null` (protobuf gives Go a nil slice); metadata left out when empty.
std::optional<std::string> generic_event_data(std::string_view payload, bool json_body,
                                              const std::map<std::string, std::string>& metadata,
                                              std::string& error);

} // namespace ganglion::grpc::detail
