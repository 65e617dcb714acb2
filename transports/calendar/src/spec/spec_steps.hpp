#pragma once

#include "ganglion/calendar/spec.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

// The calendar kind's reader (YAML → model) and rules (Argo's calendar validate.go plus
// ganglion's).

namespace ganglion::calendar::detail {

/// Reads `spec.calendar.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.calendar.<event>`, and ganglion's: the time zone loads, exclusion
/// dates parse, the interval is at least a second.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::calendar::detail
