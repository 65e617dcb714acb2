#pragma once

// Values flowing through gjson path evaluation: an element of the event's document, or of a
// document the path built (kept alive by `owner`).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <simdjson.h>

#include "ganglion/dsl/path/json_eval.hpp"
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

/// What one evaluation has done, held to max_path_steps and max_path_built_bytes: a path of
/// nested multipaths or modifiers otherwise builds JSON that grows geometrically with its length.
class budget {
public:
  /// Counts one unit of work (a segment, an array element or object field visited); throws
  /// budget_exceeded past max_path_steps.
  void step() {
    if (++steps_ > max_path_steps)
      too_many_steps();
  }
  /// Throws budget_exceeded when JSON being built, `size` bytes so far, would take the
  /// evaluation past max_path_built_bytes.
  void check(std::size_t size) const {
    if (size > max_path_built_bytes - built_)
      built_too_much();
  }
  /// Charges `size` bytes of built JSON; throws as check does.
  void charge(std::size_t size) {
    check(size);
    built_ += size;
  }

private:
  [[noreturn]] static void too_many_steps();
  [[noreturn]] static void built_too_much();

  std::size_t steps_ = 0;
  std::size_t built_ = 0;
};

/// Parses JSON built by the path, charging it to `b`; nothing when `json` is empty or invalid.
maybe synthesize(std::string json, budget& b);

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
maybe apply_modifier(const path_ast::segment& seg, const node& value, budget& b);

} // namespace ganglion::dsl::path_eval
