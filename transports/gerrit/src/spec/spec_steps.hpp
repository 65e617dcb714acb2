#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/gerrit/spec.hpp"

// The gerrit kind's reader (YAML → model) and rules (Argo's gerrit validate.go plus ganglion's).

namespace ganglion::gerrit::detail {

/// Reads `spec.gerrit.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.gerrit.<event>` (the webhook context's are the push step's), plus
/// ganglion's.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::gerrit::detail
