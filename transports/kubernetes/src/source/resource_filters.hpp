#pragma once

// Private: Argo's passFilters for the resource source (prefix, afterStart, createdBy, fields),
// compiled once per source.

#include <optional>
#include <string_view>

#include <simdjson.h>

#include "ganglion/kubernetes/resource_spec.hpp"
#include "client/resource_selectors.hpp"
#include "client/resource_time.hpp"

namespace ganglion::kubernetes::detail {

/// The client-side filters of one source; labels are not here (the API applies them).
class resource_filters {
public:
  /// `start`: when the source started (for afterStart). Throws std::invalid_argument when a
  /// field selector does not compile.
  resource_filters(const std::optional<resource_filter>& filter, time_point start);

  /// Whether a change of `type` (`ADD`, `UPDATE`, `DELETE`) to `object` passes: the name has
  /// the prefix; with afterStart, the change happened at or after the start; the object was
  /// created at or before createdBy; every field selector matches.
  bool pass(simdjson::dom::element object, std::string_view type, time_point now) const;

private:
  std::optional<resource_filter> filter_;
  std::optional<field_matcher> fields_;
  time_point start_;
};

} // namespace ganglion::kubernetes::detail
