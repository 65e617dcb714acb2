#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/github/spec.hpp"

// The github kind's reader (YAML → model) and rules (Argo's github validate.go plus ganglion's).

namespace ganglion::github::detail {

/// Reads `spec.github.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.github.<event>` (its WebhookContext's are push_spec_step's).
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::github::detail
