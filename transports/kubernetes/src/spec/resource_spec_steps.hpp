#pragma once

// The resource source's reader (YAML → model) and rules (Argo's resource validate.go, the
// requirement rules its start applies, and ganglion's).

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"

namespace ganglion::kubernetes::detail {

/// Reads `spec.resource.<event>`; a `filter.createdBy` that is not an RFC 3339 time is an error.
resource_event_spec read_resource_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.resource.<event>`.
void check_resource_event(const resource_event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::kubernetes::detail
