#pragma once

#include <set>
#include <string>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Argo's validateTrigger for the trigger at `path` (recursing into its dlqTrigger), with
/// `dependencies` the sensor's dependency names for conditions and parameters; keeps the
/// compiled conditions on the template (`compiled_conditions`) for the sensor to share.
void validate_trigger(trigger& t, const std::string& path,
                      const std::set<std::string>& dependencies, const load_context& cx);

} // namespace ganglion::dsl::detail
