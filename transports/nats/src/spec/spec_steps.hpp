#pragma once

#include <optional>
#include <string>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/nats/spec.hpp"

// The nats kind's readers (YAML → model) and rules (Argo's nats validate.go plus ganglion's).

namespace ganglion::nats::detail {

/// Reads `spec.nats.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Reads `template.nats`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Argo's rules for `spec.nats.<event>`.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Argo's validateNATSTrigger plus ganglion's rules for `template.nats`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::nats::detail
