#pragma once

// What the event-data fuzz targets check their output with.

#include <regex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ganglion::fuzz {

/// True when the first four bytes of `text` are hex digits.
inline bool is_hex4(std::string_view text) {
  return text.size() >= 4
         && text.substr(0, 4).find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

/// True when `text` is one JSON value, its structure checked the way Go's json.RawMessage keeps
/// a document: every byte above 0x7f is read as a letter (invalid UTF-8 inside a string is
/// kept), every `\uXXXX` as `\u0041` (a lone surrogate is kept) and every well-formed number
/// as 0 (one out of double's range is kept too).
inline bool is_json_shaped(std::string_view text) {
  static const std::regex number("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  std::string shaped;
  shaped.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (static_cast<unsigned char>(c) > 0x7f) {
      shaped += 'a';
    } else if (in_string) {
      shaped += c;
      if (c == '\\' && i + 5 < text.size() && text[i + 1] == 'u' && is_hex4(text.substr(i + 2))) {
        shaped += "u0041";
        i += 5;
      } else if (c == '\\' && i + 1 < text.size()) {
        shaped += static_cast<unsigned char>(text[++i]) > 0x7f ? '\x01' : text[i];
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      auto end = text.find_first_not_of("0123456789+-.eE", i);
      auto token = std::string(text.substr(i, end - i));
      shaped += std::regex_match(token, number) ? "0" : token;
      i += token.size() - 1;
    } else {
      shaped += c;
      in_string = c == '"';
    }
  }
  return nlohmann::json::accept(shaped);
}

} // namespace ganglion::fuzz
