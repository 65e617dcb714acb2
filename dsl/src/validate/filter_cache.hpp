#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "ganglion/dsl/filter/precompiled_filters.hpp"

namespace ganglion::dsl::detail {

/// The data and expr filters compiled during one load, by their text: dependencies with the
/// same filters (sensors generated from one template) share one compiled copy, compiled once.
class filter_cache {
public:
  /// `f`'s compiled data and expr filters, compiled on first use; throws what
  /// precompile_filters() throws (a failure is not remembered).
  std::shared_ptr<const precompiled_filters> get(const dependency_filter& f);

private:
  std::unordered_map<std::string, std::shared_ptr<const precompiled_filters>> by_text_;
};

} // namespace ganglion::dsl::detail
