#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/openwhisk/spec.hpp"

// The openwhisk kind's reader (YAML → model) and rules (Argo's validateOpenWhiskTrigger).

namespace ganglion::openwhisk::detail {

/// Reads `template.openWhisk`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Argo's validateOpenWhiskTrigger for `template.openWhisk`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::openwhisk::detail
