#pragma once

#include "ganglion/amqp/spec.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

// The amqp kind's reader (YAML → model) and rules (Argo's amqp validate.go plus ganglion's).

namespace ganglion::amqp::detail {

/// Reads `spec.amqp.<event>`, with Argo's defaults for each part left out.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.amqp.<event>` plus ganglion's (url scheme, exchangeName, the
/// queue's `arguments`, what ganglion ignores, what autoAck costs).
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::amqp::detail
