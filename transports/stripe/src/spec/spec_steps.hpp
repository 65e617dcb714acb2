#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/stripe/spec.hpp"

// The stripe kind's reader (YAML → model) and rules (Argo's stripe validate.go plus ganglion's).

namespace ganglion::stripe::detail {

/// Reads `spec.stripe.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.stripe.<event>` (the webhook context's are the push step's), plus
/// ganglion's.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::stripe::detail
