#pragma once

// Not installed: exposes simdjson through event_view.

#include <chrono>
#include <memory>
#include <string>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/script/script_budget.hpp"

namespace ganglion::dsl {

/// Compiles `program` as jq_transform does (jq_compile, no module path), without running it;
/// jq's messages, or empty when it compiles.
std::string jq_compile_error(const std::string& program);

/// A dependency's `transform.jq`: a jq 1.6 program compiled once into its own jq state.
/// Each run may take `budget`; a watchdog thread halts it after that. Not thread-safe: one
/// sensor actor owns each instance.
class jq_transform {
public:
  /// Compiles; throws compile_error carrying jq's message.
  explicit jq_transform(const std::string& program,
                        std::chrono::milliseconds budget = default_script_budget);
  ~jq_transform();
  jq_transform(jq_transform&&) noexcept;
  jq_transform& operator=(jq_transform&&) noexcept;

  /// Argo's applyJQTransform: runs the program on the data (a JSON object) and returns its
  /// first output, which must be an object, as JSON text; empty when the event has no data
  /// (Argo leaves it unchanged). Throws budget_exceeded when the run is cut off,
  /// std::runtime_error for any other failure.
  std::string apply(const event_view& event) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
