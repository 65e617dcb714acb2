#pragma once

// Label and field selectors (`labelSelector`, `fieldSelector` query parameters).

#include <string>
#include <vector>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// One requirement of a selector.
struct requirement {
  enum class op { equals, not_equals, in, not_in, exists, not_exists };
  std::string key;
  op operation = op::equals;
  std::vector<std::string> values;
};

/// A parsed selector: every requirement must hold. Empty matches everything.
struct selector {
  std::vector<requirement> requirements;
};

/// Parses a label selector: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
/// comma-separated. Throws api_error (400) naming the bad part.
selector parse_label_selector(const std::string& text);

/// Parses a field selector (`=`, `==`, `!=`) over the fields `type` supports
/// (`metadata.name`, `metadata.namespace`, and a few of core kinds). Throws api_error (400).
selector parse_field_selector(const std::string& text, const resource_type& type);

/// Whether `object`'s labels satisfy `labels` and its fields satisfy `fields`.
bool matches(const json& object, const selector& labels, const selector& fields);

} // namespace ganglion::test::kube
