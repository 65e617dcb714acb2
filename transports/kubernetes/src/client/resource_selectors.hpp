#pragma once

// Private: the resource source's selectors — labels as the API's label selector (Argo's
// LabelSelector, with apimachinery's requirement rules), fields matched against the object.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <simdjson.h>

#include "ganglion/kubernetes/resource_spec.hpp"

namespace ganglion::kubernetes::detail {

/// Why apimachinery's labels.NewRequirement refuses the requirement Argo builds from
/// `selector` (operator, key, value count and syntax), or nullopt.
std::optional<std::string> label_requirement_error(const resource_selector& selector);

/// The label selector text Argo sends (`labels.NewSelector().Add(…).String()`: requirements
/// sorted by key, joined by `,`). Throws std::invalid_argument with the first requirement error.
std::string label_selector(const std::vector<resource_selector>& selectors);

/// Whether a field selector's operation can ever match: `=`, `==`, `!=` (and empty, read
/// as `==`).
bool field_operation_supported(const std::string& operation);

/// The field selectors of a filter, compiled once: gjson path and RE2 regular expression.
class field_matcher {
public:
  /// Throws std::invalid_argument naming the selector (index) whose path or regex does not
  /// compile.
  explicit field_matcher(const std::vector<resource_selector>& selectors);
  ~field_matcher();
  field_matcher(field_matcher&&) noexcept;
  field_matcher& operator=(field_matcher&&) noexcept;

  /// Argo's filterFields: every selector's path exists and its string value matches (`=`,
  /// `==`) or does not match (`!=`) the expression; an unsupported operation never passes.
  bool matches(simdjson::dom::element object) const;

  /// Why `selector`'s path or expression does not compile, or nullopt.
  static std::optional<std::string> compile_error(const resource_selector& selector);

private:
  struct compiled;
  std::vector<std::unique_ptr<compiled>> selectors_;
};

} // namespace ganglion::kubernetes::detail
