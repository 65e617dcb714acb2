#pragma once

// Private: the data of `redis` and `redisStream` events, as Argo's RedisEventData and
// RedisStreamEventData marshal.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::redis {

/// `{"channel":…,"pattern":…,"body":…,"metadata":{…}}`: `body` is the message as a JSON string,
/// or (`json_body`) the message itself as JSON, compacted; `metadata` left out when empty.
/// nullopt with `error` set when `json_body` is set and the message is not one JSON document
/// (Argo's json.Marshal fails and the event is rejected).
std::optional<std::string> pubsub_event_data(std::string_view channel, std::string_view pattern,
                                             std::string_view payload, bool json_body,
                                             const std::map<std::string, std::string>& metadata,
                                             std::string& error);

/// `{"stream":…,"message_id":…,"values":{…},"metadata":{…}}`: `values` sorted by field (a Go
/// map), `null` when the entry has none (deleted while pending); `metadata` left out when empty.
std::string stream_event_data(std::string_view stream, std::string_view id,
                              const std::optional<std::map<std::string, std::string>>& values,
                              const std::map<std::string, std::string>& metadata);

} // namespace ganglion::redis
