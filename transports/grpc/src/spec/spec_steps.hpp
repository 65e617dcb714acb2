#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/grpc/spec.hpp"

// The grpc kinds' readers (YAML → model) and rules (Argo's validate.go plus ganglion's).

namespace ganglion::grpc::detail {

/// Reads `spec.generic.<event>`.
generic_spec read_generic(const dsl::spec_read_input& in);

/// Reads `template.custom`.
custom_spec read_custom(const dsl::spec_read_input& in);

/// Argo's generic ValidateEventSource plus ganglion's rules for `spec.generic.<event>`.
void check_generic(const generic_spec& spec, const dsl::spec_check_input& in);

/// Argo's validateCustomTrigger plus ganglion's rules for `template.custom`.
void check_custom(const custom_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::grpc::detail
