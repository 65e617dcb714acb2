#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/email/spec.hpp"

// The email kind's reader (YAML → model) and rules (Argo's validateEmailTrigger).

namespace ganglion::email::detail {

/// Reads `template.email`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Argo's validateEmailTrigger for `template.email`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::email::detail
