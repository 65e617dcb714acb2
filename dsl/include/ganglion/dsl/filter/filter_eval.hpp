#pragma once

// Not installed: exposes simdjson through event_view.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// The outcome of one filter: pass or not, and an error text when evaluation failed
/// (missing path, bad type …); Argo's (bool, error) pair.
struct filter_outcome {
  bool pass = false;
  std::string error;
  /// Why the event did not pass when no error occurred (e.g. which data filter did not match).
  std::string reason = {};
  /// The error is a cut-off: the filter exceeded its budget (time, instructions, memory).
  bool cut_off = false;
};

/// Why `pattern`, a string value of a data filter, is not a pattern compiled_data_filter accepts
/// (an RE2 regex, matched unanchored); empty when it is.
std::string data_filter_regex_error(const std::string& pattern);

/// One data filter compiled at load time (path, typed values, regexes).
class compiled_data_filter {
public:
  /// Compiles; throws compile_error for an invalid path, value or regex.
  explicit compiled_data_filter(const data_filter& spec);
  ~compiled_data_filter();
  compiled_data_filter(compiled_data_filter&&) noexcept;
  compiled_data_filter& operator=(compiled_data_filter&&) noexcept;

  /// Evaluates against the event's parsed data with Argo's semantics (nil data passes, a
  /// missing path is an error).
  filter_outcome evaluate(const event_view& event) const;

  /// Evaluates on parsed data: nullopt when the path does not exist, else whether any value
  /// matches. Throws std::runtime_error when the filter's template fails.
  std::optional<bool> matches(simdjson::dom::element data) const;

  /// The path text.
  const std::string& path() const noexcept;

  /// True when the path can build JSON (json_path::builds): its evaluation may run to its budget.
  bool builds_json() const noexcept;

  /// A short description for explanations, e.g. `body.action (string) = "opened|closed"`.
  std::string describe() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// All data filters of a dependency with `dataLogicalOperator` (and/or).
class compiled_data_filters {
public:
  /// Compiles every filter; throws compile_error naming the failing index.
  compiled_data_filters(const std::vector<data_filter>& specs, const std::string& logical_operator);

  /// True when no data filter is configured.
  bool empty() const noexcept { return filters_.empty(); }

  /// Argo's filterData: nil data passes, AND stops at the first error, OR collects errors.
  filter_outcome evaluate(const event_view& event) const;

  /// True when a filter's path can build JSON (json_path::builds).
  bool builds_json() const noexcept;

private:
  std::vector<compiled_data_filter> filters_;
  bool any_ = false;
};

/// Argo's filterContext: every non-empty type/subject/source/datacontenttype must match exactly.
filter_outcome evaluate_context_filter(const event_context& expected, const event_view& event);

} // namespace ganglion::dsl
