#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/storagegrid/spec.hpp"

// The storageGrid kind's reader (YAML → model) and rules (Argo's storagegrid validate.go plus
// ganglion's).

namespace ganglion::storagegrid::detail {

/// Reads `spec.storageGrid.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.storageGrid.<event>` (the webhook context's are the push step's),
/// plus ganglion's.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::storagegrid::detail
