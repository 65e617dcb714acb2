#pragma once

// The spec step of a source, trigger or bus kind: how `dsl` reads and checks the part of a
// manifest that belongs to one kind (`spec.<type>.<event>`, `template.<type>`, an EventBus's
// `spec.<type>`) without naming its type.
// A kind (transports/<x>/) registers one beside its factory; docs/adding-a-kind.md.

#include <any>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace ganglion::dsl {

/// What a kind's reader gets: the YAML node, its path and where problems go
/// (ganglion/dsl/kind/spec_input.hpp; kinds built in this tree only).
struct spec_read_input;

/// What a kind's rules get: the path, where problems go and, for a trigger, the sensor's
/// dependencies (ganglion/dsl/kind/spec_input.hpp).
struct spec_check_input;

/// Something an event holds alone, e.g. a webhook's port and endpoint: two events with the
/// same `what` are an error at `field` of the second.
struct spec_claim {
  std::string what;  ///< "endpoint /push on port 12000"
  std::string field; ///< the field of the event to report at (`endpoint`)
};

/// One kind's spec step.
struct kind_spec {
  /// Reads the kind's part of the manifest into its own model (returned as std::any, handed
  /// back to the kind's factory as source_event::spec or trigger_action::spec).
  std::function<std::any(const spec_read_input&)> read;
  /// Argo's validate.go for the kind (and ganglion's own rules) on what `read` returned.
  std::function<void(const std::any&, const spec_check_input&)> check;
  /// What a source event holds alone, if anything (empty: nothing).
  std::function<std::optional<spec_claim>(const std::any&)> claim;
};

/// The spec steps of the kinds a program runs, by Argo key (`kafka`, `http` …). A type with no
/// step is loaded as JSON and checked with Argo's rules for it, if dsl has them; `run` refuses it.
struct kind_specs {
  std::map<std::string, kind_spec, std::less<>> sources;
  std::map<std::string, kind_spec, std::less<>> triggers;
  /// EventBus kinds, by the key of its spec (`jetstream`, `jetstreamExotic`, `kafka`, `nats`).
  std::map<std::string, kind_spec, std::less<>> buses;
};

} // namespace ganglion::dsl
