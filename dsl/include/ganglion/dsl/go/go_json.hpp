#pragma once

// Not installed: JSON written byte for byte as Go's json.Marshal writes it (HTML escaping on),
// for the event data of sources whose Argo counterpart marshals a Go struct.

#include <string>
#include <string_view>
#include <vector>

namespace ganglion::dsl {

/// Appends json.Marshal of a Go string: `"` and `\` escaped, `\b \f \n \r \t`, other control
/// bytes as `\u00XX`, `<` `>` `&` U+2028 U+2029 as `\u…`, each invalid UTF-8 byte as `\ufffd`.
void append_go_json_string(std::string& out, std::string_view text);

/// Appends json.Marshal of a []byte: standard base64 with padding, quoted.
void append_go_json_bytes(std::string& out, std::string_view bytes);

/// Appends json.Marshal of a json.RawMessage: `document` compacted (white space outside strings
/// dropped), with `<` `>` `&` U+2028 U+2029 escaped; the bytes inside strings otherwise kept.
/// Returns false with `error` set, and `out` unchanged, when `document` is not one JSON value
/// (Go's grammar: invalid UTF-8 in strings and numbers out of range are accepted).
bool append_go_json_raw(std::string& out, std::string_view document, std::string& error);

/// Appends a broker message's body as Argo's sources write it with `jsonBody` set: the body as a
/// json.RawMessage. Returns false with `error` set (`<what> is empty, not JSON`, `<what> is not
/// valid JSON: …`), and `out` unchanged, when the body is empty or not one JSON value.
bool append_go_json_body(std::string& out, std::string_view body, std::string_view what,
                         std::string& error);

/// Appends json.Marshal of a []string.
void append_go_json_value(std::string& out, const std::vector<std::string>& values);

/// Appends json.Marshal of a string (as append_go_json_string).
inline void append_go_json_value(std::string& out, std::string_view text) {
  append_go_json_string(out, text);
}

/// Appends json.Marshal of a map[string]string or map[string][]string (http.Header,
/// url.Values, nats.Header); `entries` iterate in key order (Go sorts keys byte-wise, as a
/// std::map of strings does).
template <class Map>
void append_go_json_object(std::string& out, const Map& entries) {
  out += '{';
  bool first = true;
  for (const auto& [name, value] : entries) {
    if (!first)
      out += ',';
    first = false;
    append_go_json_string(out, name);
    out += ':';
    append_go_json_value(out, value);
  }
  out += '}';
}

/// Appends `,"<name>":` and the object of `entries`, or nothing when `entries` is empty: a map
/// field tagged `omitempty` after the first field of a struct.
template <class Map>
void append_go_json_omitempty(std::string& out, std::string_view name, const Map& entries) {
  if (entries.empty())
    return;
  out += ",\"";
  out += name;
  out += "\":";
  append_go_json_object(out, entries);
}

} // namespace ganglion::dsl
