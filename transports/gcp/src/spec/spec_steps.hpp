#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/gcp/spec.hpp"

// The pubSub kind's reader (YAML → model) and rules (Argo's gcppubsub validate.go plus
// ganglion's).

namespace ganglion::gcp::detail {

/// Reads `spec.pubSub.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.pubSub.<event>`, plus ganglion's.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::gcp::detail
