#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/mqtt/spec.hpp"

// The mqtt kind's reader (YAML → model) and rules (Argo's mqtt validate.go plus ganglion's).

namespace ganglion::mqtt::detail {

/// Reads `spec.mqtt.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.mqtt.<event>` plus ganglion's: the url's scheme and port, the topic
/// filter's wildcards, TLS with a scheme that uses it.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::mqtt::detail
