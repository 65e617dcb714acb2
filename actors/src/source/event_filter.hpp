#pragma once

// Not installed: the event-source `filter.expression`, evaluated on the event data before
// publishing.

#include <string>
#include <string_view>

#include "ganglion/dsl/expr/expr.hpp"

namespace ganglion::core {

/// A compiled `filter.expression`. Argo evaluates it with expr-lang over the event data
/// unmarshalled into a map (top-level keys with `-` replaced by `_`); ganglion evaluates it with
/// the govaluate-style expression language of `filters.exprs` (comparisons, `&& || !`, `=~`,
/// arithmetic, `a.b` member access), which covers the documented examples such as
/// `body.id == 4 && body.name != "Joe"`. expr-lang functions are not available.
class event_filter {
public:
  /// Compiles `expression`; throws std::runtime_error with the position of a syntax error.
  explicit event_filter(const std::string& expression);

  /// True when the event passes. False when it does not, or (with `error` set) when the data is
  /// not a JSON object, a variable is missing or the result is not a bool.
  bool passes(std::string_view data_json, std::string& error) const;

private:
  dsl::expression expression_;
};

} // namespace ganglion::core
