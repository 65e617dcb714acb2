#include "ganglion/kafka/internal/event_data.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

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
  auto millis = static_cast<int>(unix_ms - seconds * 1000);
  std::int64_t days = floor_div(seconds, 86400);
  auto in_day = static_cast<int>(seconds - days * 86400);
  std::int64_t year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(days, year, month, day);
  auto out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", year, month, day, in_day / 3600,
                         in_day / 60 % 60, in_day % 60);
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
  static constexpr char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  for (; i + 3 <= bytes.size(); i += 3) {
    unsigned v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (auto rest = bytes.size() - i; rest > 0) {
    unsigned v = at(i) << 16;
    if (rest == 2)
      v |= at(i + 1) << 8;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += rest == 2 ? alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  if (!simdjson::validate_utf8(text.data(), text.size())) {
    out += nlohmann::json(std::string(text))
             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (byte < 0x20) {
          out += "\\u00";
          out += hex[byte >> 4];
          out += hex[byte & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

std::optional<std::string> event_data(const record_view& record, bool json_body,
                                      const std::map<std::string, std::string>& metadata,
                                      std::string& error) {
  std::string out;
  out.reserve(record.value ? record.value->size() * 4 / 3 + 160 : 160);
  out += R"({"topic":)";
  append_json_string(out, record.topic);
  out += R"(,"key":)";
  append_json_string(out, record.key.value_or(std::string_view{}));
  out += R"(,"partition":)";
  out += std::to_string(record.partition);
  out += R"(,"body":)";
  if (!record.value) {
    out += "null";
  } else if (json_body) {
    thread_local simdjson::dom::parser parser;
    const auto& value = *record.value;
    if (auto parsed = parser.parse(value.data(), value.size()); parsed.error()) {
      error = fmt::format("the message value is not JSON (jsonBody is set): {}",
                          simdjson::error_message(parsed.error()));
      return std::nullopt;
    }
    auto start = out.size();
    out.resize(start + value.size());
    std::size_t length = 0;
    if (simdjson::minify(value.data(), value.size(), out.data() + start, length) !=
        simdjson::SUCCESS) {
      error = "cannot minify the message value";
      return std::nullopt;
    }
    out.resize(start + length);
  } else {
    out += '"';
    out += base64(*record.value);
    out += '"';
  }
  out += R"(,"timestamp":")";
  out += go_time_string(record.timestamp_ms);
  out += R"(","headers":{)";
  std::map<std::string_view, std::string_view> headers;
  for (const auto& [name, value] : record.headers)
    headers.insert_or_assign(name, value);
  bool first = true;
  for (const auto& [name, value] : headers) {
    if (!first)
      out += ',';
    first = false;
    append_json_string(out, name);
    out += ':';
    append_json_string(out, value);
  }
  out += '}';
  if (!metadata.empty()) {
    out += R"(,"metadata":{)";
    first = true;
    for (const auto& [name, value] : metadata) {
      if (!first)
        out += ',';
      first = false;
      append_json_string(out, name);
      out += ':';
      append_json_string(out, value);
    }
    out += '}';
  }
  out += '}';
  return out;
}

} // namespace ganglion::kafka::detail
