#pragma once

// Not installed: Argo's trigger parameters applied once, in core, for every trigger kind
// (listener.go triggerOne: ApplyTemplateParameters, ApplyResourceParameters; ConstructPayload),
// so the executors in transports/ only send what it resolved.

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/params/trigger_parameters.hpp"

namespace ganglion::core {

/// The parameters of one trigger, compiled and with its template split at start, resolved per
/// firing. Thread-safe.
class parameter_step {
public:
  /// Compiles the parameters of `manifest` and takes its template apart; throws trigger_error
  /// (`<field>[<index>]: <why>`, or a template without its `<kind>` object). `own_parameters`:
  /// false when the executor applies `<kind>.parameters[]` itself (they are left out here).
  explicit parameter_step(const dsl::trigger& manifest, bool own_parameters = true);

  /// True when the trigger has neither parameters nor a payload: invocations pass unchanged.
  bool empty() const { return payload_.empty() && !resource_; }

  /// `invocation` with `resource_json` and `payload` resolved from its events; throws
  /// std::runtime_error when a parameter cannot be resolved or applied.
  /// `with_events`: the result carries the invocation's events too (a copy).
  trigger_invocation resolve(const trigger_invocation& invocation, bool with_events = true);

private:
  std::vector<dsl::compiled_parameter> payload_;
  /// Present when `parameters[]` or `<kind>.parameters[]` is given.
  std::optional<dsl::resource_parameters> resource_;
  /// `<kind>.payload[]` read from each firing's rewritten template, when `parameters[]` is given.
  std::unique_ptr<dsl::rewritten_parameters> rewritten_payload_;
  std::mutex mutex_;
  dsl::event_views views_;
};

} // namespace ganglion::core
