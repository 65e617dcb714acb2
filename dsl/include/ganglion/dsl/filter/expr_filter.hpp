#pragma once

// Not installed: exposes simdjson through event_view.

#include <string>
#include <vector>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// All expr filters of a dependency (`filters.exprs[]`) with `exprLogicalOperator` (and/or),
/// compiled at load time.
class compiled_expr_filters {
public:
  /// Compiles every expression and field path; throws compile_error naming the failing index.
  compiled_expr_filters(const std::vector<expr_filter>& specs, const std::string& logical_operator);
  ~compiled_expr_filters();
  compiled_expr_filters(compiled_expr_filters&&) noexcept;
  compiled_expr_filters& operator=(compiled_expr_filters&&) noexcept;

  /// True when no expr filter is configured.
  bool empty() const noexcept;

  /// Argo's filterExpr: nil data passes; a missing field path is an error under AND and is
  /// recorded (skipping that filter) under OR; a filter binding no field is skipped; an
  /// expression passes only when it yields the boolean true; AND stops at the first false, OR
  /// returns at the first true.
  filter_outcome evaluate(const event_view& event) const;

  /// A short description for explanations, e.g. `expr a == "b" [a=body.a] and …`.
  std::string describe() const;

  /// True when a field's path can build JSON (json_path::builds).
  bool builds_json() const noexcept;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
