#include "ganglion/kafka/internal/event_data.hpp"

#include <fmt/format.h>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::kafka::detail {

namespace {

/// Days since 1970-01-01 → {year, month, day} (proleptic Gregorian).
void civil_from_days(std::int64_t days, std::int64_t& y, unsigned& m, unsigned& d) {
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0);
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

} // namespace

std::string event_id(std::string_view event_source, std::string_view event_name,
                     std::string_view url, std::string_view topic, std::int32_t partition,
                     std::int64_t offset) {
  return fmt::format("{}:{}:{}:{}:{}:{}", event_source, event_name, url.substr(0, url.find(',')),
                     topic, partition, offset);
}

std::string go_time_string(std::int64_t unix_ms) {
  if (unix_ms == -1)
    return "0001-01-01 00:00:00 +0000 UTC";
  std::int64_t seconds = floor_div(unix_ms, 1000);
  // Not unix_ms - seconds * 1000: that overflows near INT64_MIN (a broker's timestamp is any int64).
  auto millis = static_cast<int>((unix_ms % 1000 + 1000) % 1000);
  std::int64_t days = floor_div(seconds, 86400);
  auto in_day = static_cast<int>(seconds - days * 86400);
  std::int64_t year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(days, year, month, day);
  // Go pads the year's digits, after its sign, to four.
  auto out = fmt::format("{}{:04}-{:02}-{:02} {:02}:{:02}:{:02}", year < 0 ? "-" : "",
                         year < 0 ? -year : year, month, day, in_day / 3600, in_day / 60 % 60,
                         in_day % 60);
  if (millis != 0) {
    auto fraction = fmt::format("{:03}", millis);
    while (fraction.back() == '0')
      fraction.pop_back();
    out += '.';
    out += fraction;
  }
  out += " +0000 UTC";
  return out;
}

std::string base64(std::string_view bytes) {
  return dsl::base64_encode(bytes);
}

void append_json_string(std::string& out, std::string_view text) {
  dsl::append_go_json_string(out, text);
}

std::optional<std::string> event_data(const record_view& record, bool json_body,
                                      const std::map<std::string, std::string>& metadata,
                                      std::string& error) {
  std::string out;
  out.reserve(record.value ? record.value->size() * 4 / 3 + 160 : 160);
  out += R"({"topic":)";
  dsl::append_go_json_string(out, record.topic);
  out += R"(,"key":)";
  dsl::append_go_json_string(out, record.key.value_or(std::string_view{}));
  out += R"(,"partition":)";
  out += std::to_string(record.partition);
  out += R"(,"body":)";
  if (!record.value) {
    out += "null";
  } else if (json_body) {
    if (!dsl::append_go_json_raw(out, *record.value, error)) {
      error = fmt::format("the message value is not JSON (jsonBody is set): {}", error);
      return std::nullopt;
    }
  } else {
    dsl::append_go_json_bytes(out, *record.value);
  }
  out += R"(,"timestamp":")";
  out += go_time_string(record.timestamp_ms);
  out += R"(","headers":)";
  std::map<std::string_view, std::string_view> headers;
  for (const auto& [name, value] : record.headers)
    headers.insert_or_assign(name, value);
  dsl::append_go_json_object(out, headers);
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::kafka::detail
