#pragma once

#include <chrono>
#include <stdexcept>

namespace ganglion::dsl {

/// How long one run of a sensor's script (a jq or Lua transform, a Lua filter) may take before
/// it is cut off; `ganglion run --script-budget`.
inline constexpr std::chrono::milliseconds default_script_budget{100};

/// A script run cut off because it exceeded its budget (time, instructions or memory); the
/// message says which.
class budget_exceeded : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ganglion::dsl
