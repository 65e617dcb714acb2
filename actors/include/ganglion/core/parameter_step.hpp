#pragma once

// The core parameter step every trigger kind runs behind (src/trigger/parameter_step.cpp):
// Argo's trigger parameters and payload, resolved before the kind's executor sees a firing.

#include <memory>

#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// Whether `parameters[]` or `<kind>.parameters[]` is given: each invocation then carries the
/// resolved `resource_json`.
bool resource_parameterized(const dsl::trigger& manifest);

/// Creates the executor of `ctx.manifest` with `factory`, behind the core parameter step: each
/// execution and preview first resolves `resource_json` and `payload` from the invocation's
/// events, with the parameters compiled and the template split once here. Throws trigger_error
/// (naming the field for a parameter that does not compile).
std::unique_ptr<trigger_executor> create_trigger_executor(const trigger_factory& factory,
                                                          const trigger_context& ctx);

} // namespace ganglion::core
