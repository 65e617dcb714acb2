#pragma once

// Values flowing through gjson path evaluation: an element of the event's document, or of a
// document the path built (kept alive by `owner`).

#include <memory>
#include <optional>
#include <string>

#include <simdjson.h>

#include "path/json_path_ast.hpp"

namespace ganglion::dsl::path_eval {

/// A value during evaluation.
struct node {
  simdjson::dom::element el;
  /// Non-null when `el` lives in a document built by the path.
  std::shared_ptr<simdjson::dom::parser> owner;
};

/// A value, or nothing when the path does not exist.
using maybe = std::optional<node>;

/// Parses JSON built by the path; nothing when `json` is empty or invalid.
maybe synthesize(std::string json);

/// Appends the element as minified JSON.
void append_raw(std::string& out, simdjson::dom::element el);

/// Appends `text` as a minimal JSON string (only `"`, `\` and control bytes escaped).
void append_string(std::string& out, std::string_view text);

/// True for arrays and objects.
inline bool is_container(simdjson::dom::element el) {
  auto t = el.type();
  return t == simdjson::dom::element_type::ARRAY || t == simdjson::dom::element_type::OBJECT;
}

/// The element as an array (empty when it is not one).
inline simdjson::dom::array as_array(simdjson::dom::element el) {
  simdjson::dom::array a;
  if (el.get(a))
    return {};
  return a;
}

/// The element as an object (empty when it is not one).
inline simdjson::dom::object as_object(simdjson::dom::element el) {
  simdjson::dom::object o;
  if (el.get(o))
    return {};
  return o;
}

/// Applies a modifier segment (`@reverse`, `@flatten` …) to `value`.
maybe apply_modifier(const path_ast::segment& seg, const node& value);

} // namespace ganglion::dsl::path_eval
