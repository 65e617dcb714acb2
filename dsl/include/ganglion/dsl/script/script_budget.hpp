#pragma once

#include <chrono>

#include "ganglion/dsl/budget_exceeded.hpp"

namespace ganglion::dsl {

/// How long one run of a sensor's script (a jq or Lua transform, a Lua filter) may take before
/// it is cut off; `ganglion run --script-budget`.
inline constexpr std::chrono::milliseconds default_script_budget{100};

} // namespace ganglion::dsl
