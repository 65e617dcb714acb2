#pragma once

// Not installed: exposes simdjson.

#include <memory>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "ganglion/dsl/path/json_path.hpp"

namespace ganglion::dsl {

/// The JSON kind of a path result, as gjson reports it.
enum class json_kind { null, boolean, number, string, array, object };

/// The value a json_path selects: either an element of the parsed document or JSON built by
/// the path itself (`#` counts, `#.k` lists, multipaths, modifiers), which the result owns.
class path_result {
public:
  path_result() = default;
  /// A result pointing into a parsed document the caller keeps alive.
  explicit path_result(simdjson::dom::element element);
  /// A result pointing into a document that `owner` keeps alive.
  path_result(simdjson::dom::element element, std::shared_ptr<simdjson::dom::parser> owner);
  /// A result built from JSON text; throws std::invalid_argument when it is not valid JSON.
  static path_result synthesized(std::string json);

  /// False when the path does not exist (gjson `!Exists()`).
  bool exists() const noexcept { return exists_; }
  /// The JSON kind (null when !exists()).
  json_kind kind() const noexcept;
  /// gjson `.String()`: string contents unquoted, minified JSON for objects and arrays,
  /// `true`/`false`, integers as written and other numbers via FormatFloat('f', -1),
  /// empty for null or missing.
  std::string string_value() const;
  /// The string contents without a copy when kind() is string; empty otherwise.
  std::string_view string_ref() const noexcept;
  /// gjson `.Float()`: numbers, numeric strings (else 0), true → 1.
  double float_value() const;
  /// gjson `.Bool()`: true, ParseBool of lowercased strings, number != 0, else false.
  bool bool_value() const;
  /// The value as minified JSON text (`null` when missing).
  std::string raw() const;
  /// The selected element; meaningful only when exists().
  simdjson::dom::element element() const noexcept { return element_; }

private:
  bool exists_ = false;
  simdjson::dom::element element_;
  std::shared_ptr<simdjson::dom::parser> owner_;
};

/// Evaluates `path` against `root` with gjson's semantics.
path_result evaluate(const json_path& path, simdjson::dom::element root);

} // namespace ganglion::dsl
