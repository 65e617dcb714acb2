#pragma once

// Not installed: exposes simdjson.

#include <cstddef>
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

/// Units of work one evaluation may do: segments applied, array elements and object fields
/// visited. Real paths on the largest event bodies take a few hundred thousand.
inline constexpr std::size_t max_path_steps = 1'000'000;
/// Bytes of JSON one evaluation may build (multipaths, `#.` lists, modifiers, literals).
inline constexpr std::size_t max_path_built_bytes = 4 * 1024 * 1024;

/// Evaluates `path` against `root` with gjson's semantics. Throws budget_exceeded (naming the
/// path) when the evaluation passes max_path_steps or max_path_built_bytes: gjson has no such
/// limits, but nested multipaths and modifiers build JSON that grows geometrically.
path_result evaluate(const json_path& path, simdjson::dom::element root);

} // namespace ganglion::dsl
