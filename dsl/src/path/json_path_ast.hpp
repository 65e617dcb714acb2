#pragma once

// The compiled form of a gjson path. A path is a list of segments joined by pipes; each segment
// is evaluated on the previous segment's result, as gjson's `Get(result, rest)` does.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/path/json_path.hpp"

namespace ganglion::dsl::path_ast {

struct path;

/// `#(...)` comparison operators; `exists` is a query without an operator (`#(name)`).
enum class query_op { exists, eq, ne, lt, le, gt, ge, like, not_like };

/// A `~` right-hand side of a query: the value is converted to a boolean first.
enum class tilde { none, truthy, falsy, null_, any, unknown };

/// `#(path op value)` or `#(...)#`.
struct query {
  /// The path inside the query; null for a query on the element itself (`#(=="fb")`).
  std::shared_ptr<const path> subject;
  query_op op = query_op::exists;
  /// The right-hand side, unquoted and unescaped.
  std::string value;
  /// `value` as gjson's ParseFloat sees it, for numeric elements.
  double number = 0;
  tilde to_bool = tilde::none;
  /// `#(...)#`: every match instead of the first.
  bool all = false;
};

/// What a chain component does when applied to an array (on an object every kind is a key).
enum class component_kind {
  key,   ///< an object key or pattern; an array index when numeric
  count, ///< `#`: the array length
  map,   ///< `#.rest`: `rest` of every element
  query, ///< `#(...)` / `#(...)#`, optionally followed by `.rest`
};

/// One dot-separated component of a chain.
struct component {
  component_kind kind = component_kind::key;
  /// The object key, unescaped (the literal text for `#` forms).
  std::string key;
  /// The key with escapes kept, for wildcard matching.
  std::string pattern;
  bool wild = false;
  /// The array index when the component is all digits.
  std::optional<std::uint64_t> index;
  /// `map`: the path applied to each element; `query`: the optional path after the query.
  std::shared_ptr<const path> rest;
  std::optional<struct query> filter;
};

/// A gjson modifier (`@reverse`, `@flatten:{"deep":true}` …).
enum class modifier_kind { this_, reverse, flatten, keys, values, join, tostr, fromstr };

/// One entry of a multipath `[a,b]` / `{"name":a,b}`.
struct selector {
  /// The object key as JSON text (`{...}` multipaths only).
  std::string name_json;
  /// Null for an empty selector (never yields a value).
  std::shared_ptr<const path> value;
};

/// What a segment does.
enum class segment_kind { chain, modifier, multipath_array, multipath_object, literal };

/// One `Get` step.
struct segment {
  segment_kind kind = segment_kind::chain;
  std::vector<component> chain;
  modifier_kind modifier = modifier_kind::this_;
  /// `@flatten:{"deep":true}` / `@join:{"preserve":true}`.
  bool modifier_flag = false;
  std::vector<selector> selectors;
  /// A literal's JSON text (`!true`, `!"text"`, `!{...}`).
  std::string literal;
};

/// A compiled path.
struct path {
  std::vector<segment> segments;
};

/// Compiles gjson path text; `base` is added to error offsets. Throws compile_error.
path parse(std::string_view text, std::size_t base = 0);

} // namespace ganglion::dsl::path_ast

namespace ganglion::dsl {

/// The compiled form behind json_path.
struct json_path::impl {
  std::string text;
  path_ast::path compiled;
  /// One chain of plain keys and indexes (`body.items.0.id`): evaluated by a direct walk.
  bool plain = false;
  /// See json_path::builds.
  bool builds = false;
};

} // namespace ganglion::dsl
