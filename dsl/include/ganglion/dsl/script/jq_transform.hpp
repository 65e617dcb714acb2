#pragma once

// Not installed: exposes simdjson through event_view.

#include <memory>
#include <string>

#include "ganglion/dsl/filter/event_view.hpp"

namespace ganglion::dsl {

/// Compiles `program` as jq_transform does (jq_compile, no module path), without running it;
/// jq's messages, or empty when it compiles.
std::string jq_compile_error(const std::string& program);

/// A dependency's `transform.jq`: a jq 1.6 program compiled once into its own jq state.
/// Not thread-safe: one sensor actor owns each instance.
class jq_transform {
public:
  /// Compiles; throws compile_error carrying jq's message.
  explicit jq_transform(const std::string& program);
  ~jq_transform();
  jq_transform(jq_transform&&) noexcept;
  jq_transform& operator=(jq_transform&&) noexcept;

  /// Argo's applyJQTransform: runs the program on the data (a JSON object) and returns its
  /// first output, which must be an object, as JSON text; empty when the event has no data
  /// (Argo leaves it unchanged). Throws std::runtime_error otherwise.
  std::string apply(const event_view& event) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
