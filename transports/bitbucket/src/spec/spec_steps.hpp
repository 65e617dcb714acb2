#pragma once

#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

// The bitbucket kinds' readers (YAML → model) and rules (Argo's validate.go plus ganglion's).

namespace ganglion::bitbucket::detail {

/// Reads `spec.bitbucket.<event>`.
event_spec read_cloud(const dsl::spec_read_input& in);

/// Argo's rules for `spec.bitbucket.<event>` (the webhook context's are the push step's), plus
/// ganglion's.
void check_cloud(const event_spec& spec, const dsl::spec_check_input& in);

/// Reads `spec.bitbucketserver.<event>`.
server_spec read_server(const dsl::spec_read_input& in);

/// Argo's rules for `spec.bitbucketserver.<event>`, plus ganglion's (what it does not run yet).
void check_server(const server_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::bitbucket::detail
