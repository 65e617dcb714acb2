#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/load.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl::detail {

class filter_cache;

/// What loading and validating one document reports into.
struct load_context {
  document& doc;
  std::vector<diagnostic>& diagnostics;
  const load_options& options;
  /// Compiled filters shared by the documents of one load (null: each compiles its own).
  filter_cache* filters = nullptr;

  /// Reports an error at `path` (located at the path or its nearest existing ancestor).
  void error(const std::string& path, std::string message) const;

  /// Reports a warning at `path`.
  void warning(const std::string& path, std::string message) const;

  /// Reports an unknown field: a warning, or an error with options.strict; names the field of
  /// `known` that `key` most likely misspells, if one is close.
  void unknown_field(const std::string& path, const std::string& key,
                     const std::vector<std::string_view>& known = {}) const;

  /// Reports a value of the wrong shape or type at `path`; later diagnostics at or below `path`
  /// are dropped, as they would only restate it.
  void type_error(const std::string& path, std::string message) const;

  /// Paths that hold a value of the wrong shape (see type_error).
  mutable std::set<std::string> bad_values = {};
};

} // namespace ganglion::dsl::detail
