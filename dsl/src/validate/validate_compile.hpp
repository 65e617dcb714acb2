#pragma once

// The small languages of a manifest compiled at validation, with the compilers `run` uses, so
// that `validate` refuses what `run` would: each failure is one error at the node's path (a
// warning, `level`, for the fields of kinds ganglion does not run, which run never compiles).

#include <string>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Compiles `text` as a gjson path (json_path::compile); false after reporting at `path`.
bool check_json_path(const std::string& text, const std::string& path, const load_context& cx,
                     severity level = severity::error);

/// Compiles `text` as an sjson destination (dest_path::compile); false after reporting.
bool check_dest_path(const std::string& text, const std::string& path, const load_context& cx,
                     severity level = severity::error);

/// Parses `text` as a Go template (go_template::parse); false after reporting at `path`.
bool check_go_template(const std::string& text, const std::string& path, const load_context& cx,
                       severity level = severity::error);

/// Compiles `text` as a govaluate expression (expression::compile); false after reporting.
bool check_expression(const std::string& text, const std::string& path, const load_context& cx,
                      severity level = severity::error);

/// Compiles `pattern` as a data filter's string value (RE2); false after reporting at `path`.
bool check_regex(const std::string& pattern, const std::string& path, const load_context& cx,
                 severity level = severity::error);

/// Compiles `source` as a Lua chunk without running it; false after reporting at `path`.
bool check_lua(const std::string& source, const std::string& path, const load_context& cx,
               severity level = severity::error);

/// Compiles `program` as a jq program without running it; false after reporting at `path`.
bool check_jq(const std::string& program, const std::string& path, const load_context& cx,
              severity level = severity::error);

} // namespace ganglion::dsl::detail
