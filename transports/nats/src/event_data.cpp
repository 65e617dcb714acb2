#include "event_data.hpp"

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace ganglion::nats {

namespace {

/// Appends `text` as a JSON string; invalid UTF-8 becomes U+FFFD, as Go writes it.
void append_string(std::string& out, std::string_view text) {
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

std::optional<std::string> minified_json(std::string_view payload, std::string& error) {
  if (payload.empty()) {
    error = "the message body is empty, not JSON";
    return std::nullopt;
  }
  thread_local simdjson::dom::parser parser;
  auto parsed = parser.parse(payload.data(), payload.size());
  if (parsed.error()) {
    error = std::string("the message body is not valid JSON: ") +
            simdjson::error_message(parsed.error());
    return std::nullopt;
  }
  std::string out(payload.size(), '\0');
  std::size_t length = 0;
  if (simdjson::minify(payload.data(), payload.size(), out.data(), length) != simdjson::SUCCESS) {
    error = "the message body cannot be minified";
    return std::nullopt;
  }
  out.resize(length);
  return out;
}

} // namespace

std::string base64(std::string_view bytes) {
  static constexpr char table[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    auto n = (static_cast<unsigned char>(bytes[i]) << 16) |
             (static_cast<unsigned char>(bytes[i + 1]) << 8) |
             static_cast<unsigned char>(bytes[i + 2]);
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += table[(n >> 6) & 63];
    out += table[n & 63];
  }
  if (auto rest = bytes.size() - i; rest > 0) {
    auto n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2)
      n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += rest == 2 ? table[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> nats_event_data(std::string_view subject, std::string_view payload,
                                           const header_map& headers, bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error) {
  std::string out;
  out.reserve(payload.size() * 4 / 3 + subject.size() + 64);
  out += R"({"subject":)";
  append_string(out, subject);
  out += R"(,"body":)";
  if (json_body) {
    auto body = minified_json(payload, error);
    if (!body)
      return std::nullopt;
    out += *body;
  } else {
    out += '"';
    out += base64(payload);
    out += '"';
  }
  if (!headers.empty()) {
    out += R"(,"header":{)";
    bool first = true;
    for (const auto& [name, values] : headers) {
      if (!first)
        out += ',';
      first = false;
      append_string(out, name);
      out += ":[";
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
          out += ',';
        append_string(out, values[i]);
      }
      out += ']';
    }
    out += '}';
  }
  if (!metadata.empty()) {
    out += R"(,"metadata":{)";
    bool first = true;
    for (const auto& [key, value] : metadata) {
      if (!first)
        out += ',';
      first = false;
      append_string(out, key);
      out += ':';
      append_string(out, value);
    }
    out += '}';
  }
  out += '}';
  return out;
}

} // namespace ganglion::nats
