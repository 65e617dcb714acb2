#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/minio/spec.hpp"

// The minio kind's reader (YAML → model) and rules (Argo's minio validate.go plus ganglion's).

namespace ganglion::minio::detail {

/// Reads `spec.minio.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.minio.<event>` and ganglion's (bucket and endpoint forms).
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::minio::detail
