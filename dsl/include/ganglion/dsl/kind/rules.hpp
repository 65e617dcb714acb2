#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Go's strconv.ParseBool: 1 t T TRUE true True 0 f F FALSE false False.
bool go_parse_bool(std::string_view text);

/// Go's strconv.ParseFloat(text, 64) succeeds: decimal and hex floats, inf, infinity, nan, `_`
/// after a base prefix; out of range fails (the same parser the filters run with).
bool go_parse_float(std::string_view text);

/// A time of day "HH:MM:SS" as Go's time.Parse("15:04:05") reads it (the hour may have one
/// digit, seconds may carry a fraction); the second of the day, or nullopt.
std::optional<double> parse_clock_time(std::string_view text);

/// True when the document has a node at `path` (as opposed to a defaulted model field).
bool present(const load_context& cx, const std::string& path);

/// What trigger parameters are checked against.
struct parameter_scope {
  /// The sensor's dependency names.
  const std::set<std::string>& dependencies;
  /// The `dest` of the trigger's template-level parameters, which may rewrite the action's own
  /// parameters before they run (`argoWorkflow.parameters.0.src.dependencyName`).
  std::vector<std::string> template_dests;
  /// How a parameter that does not compile is reported: an error for the kinds ganglion runs,
  /// a warning for the others (run never compiles their parameters).
  severity compile_level = severity::error;
};

/// Checks trigger parameters at `path` (a list): src.dependencyName required and declared,
/// dest required unless `dest_optional`, operation one of "", overwrite, append, prepend.
/// `relative` is the list's path inside the template in dest syntax (`http.payload`), empty for
/// the template-level list; a dependency name that a template-level parameter rewrites is not
/// required to be declared.
void validate_parameters(const std::vector<trigger_parameter>& parameters, const std::string& path,
                         bool dest_optional, const parameter_scope& scope,
                         const load_context& cx, const std::string& relative = {});

/// Argo requires `payload` of some actions (kafka, nats; an empty list will do): an error at
/// `path.payload` when it is absent, and the list checked with every item needing a dest.
void require_payload(const std::vector<trigger_parameter>& payload, const std::string& path,
                     const std::string& type, const parameter_scope& scope,
                     const load_context& cx);

/// Reports an error at `path` when `value` is empty: "<what> is required".
bool require(const std::string& value, const std::string& path, std::string_view what,
             const load_context& cx);

} // namespace ganglion::dsl::detail
