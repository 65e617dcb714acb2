#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/gitlab/spec.hpp"

// The gitlab kind's reader (YAML → model) and rules (Argo's gitlab validate.go plus ganglion's).

namespace ganglion::gitlab::detail {

/// Reads `spec.gitlab.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.gitlab.<event>` (its WebhookContext's are push_spec_step's).
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::gitlab::detail
