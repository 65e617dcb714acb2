#pragma once

// Pieces of the gjson path parser that work on a fragment of text alone.

#include <optional>
#include <string>
#include <string_view>

#include "path/json_path_ast.hpp"

namespace ganglion::dsl::path_ast {

/// The modifier called `name` when ganglion implements it.
std::optional<modifier_kind> supported_modifier(std::string_view name);

/// True for every built-in gjson modifier name, supported or not (`.@name` starts a segment).
bool is_gjson_modifier(std::string_view name);

/// gjson's trim: drops bytes <= ' ' at both ends.
std::string_view trim(std::string_view s);

/// gjson's Result.Bool() of `key` in a JSON object argument such as `{"deep":true}`.
bool object_flag(std::string_view json, std::string_view key);

/// The JSON key of a `{...}` multipath selector: an explicit name (kept when it is a quoted
/// JSON string), else the last component of its path when that is a simple name, else "_".
std::string selector_name(std::string_view name, std::string_view selector_path);

/// Parses the operator and right-hand side of a query (`=="x"`, `>5`, `!%"D*"` …) into `q`;
/// false when there is no valid operator.
bool parse_comparison(std::string_view text, query& q);

} // namespace ganglion::dsl::path_ast
