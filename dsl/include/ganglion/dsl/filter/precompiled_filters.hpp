#pragma once

// Not installed: exposes simdjson through the compiled filters.

#include <memory>
#include <optional>

#include "ganglion/dsl/filter/expr_filter.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/model/sensor.hpp"

namespace ganglion::dsl {

/// A dependency's data and expr filters as the loader compiled them while validating. The
/// sensor running the dependency shares them (evaluation is const), so a sensor is compiled
/// once per start.
struct precompiled_filters {
  std::optional<compiled_data_filters> data;
  std::optional<compiled_expr_filters> exprs;

  /// True when a data or expr filter path can build JSON (json_path::builds): its evaluation
  /// may run to its budget.
  bool builds_json() const noexcept {
    return (data && data->builds_json()) || (exprs && exprs->builds_json());
  }
};

/// Compiles `f`'s data and expr filters (those it has); throws std::runtime_error prefixed with
/// the filter kind ("data filter: …", "exprs filter: …") when one does not compile.
std::shared_ptr<const precompiled_filters> precompile_filters(const dependency_filter& f);

} // namespace ganglion::dsl
