#pragma once

// Not installed: the Go-compatible pieces of a kafka event (tests use them directly).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ganglion::kafka::detail {

/// A consumed Kafka record, as the event data needs it (views into the record).
struct record_view {
  std::string_view topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::optional<std::string_view> key;   ///< nullopt: a null key
  std::optional<std::string_view> value; ///< nullopt: a null value
  std::int64_t timestamp_ms = -1;        ///< -1: the record has none
  std::vector<std::pair<std::string_view, std::string_view>> headers;
};

/// Argo's event id of a Kafka record:
/// `<eventSourceName>:<eventName>:<first broker of url>:<topic>:<partition>:<offset>`.
std::string event_id(std::string_view event_source, std::string_view event_name,
                     std::string_view url, std::string_view topic, std::int32_t partition,
                     std::int64_t offset);

/// Go's time.Time.String() of a millisecond Unix time in UTC, as Argo writes `timestamp`:
/// `2024-05-01 10:20:30.123 +0000 UTC` (fraction without trailing zeros, none when zero).
/// -1 (no timestamp) gives Go's zero time `0001-01-01 00:00:00 +0000 UTC`.
std::string go_time_string(std::int64_t unix_ms);

/// Standard base64 with padding, as Go's encoding/json writes a []byte.
std::string base64(std::string_view bytes);

/// `text` as a JSON string (invalid UTF-8 replaced by U+FFFD), appended to `out`.
void append_json_string(std::string& out, std::string_view text);

/// Argo's KafkaEventData as JSON: `{"topic","key","partition","body","timestamp","headers"}`
/// plus `metadata` when not empty. `body`: with `json_body`, the value minified (it must be one
/// JSON document: otherwise nullopt and `error` says why); else base64 of the bytes; a null
/// value is `null`. `headers`: a JSON object, keys sorted, the last of duplicate keys wins.
std::optional<std::string> event_data(const record_view& record, bool json_body,
                                      const std::map<std::string, std::string>& metadata,
                                      std::string& error);

} // namespace ganglion::kafka::detail
