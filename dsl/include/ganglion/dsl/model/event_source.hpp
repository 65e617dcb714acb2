#pragma once

// The EventSource model: `spec.<type>.<event>` for each source type.

#include <any>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

/// `filter.expression` of an event source event (expr language; runs before publishing).
struct event_source_filter {
  std::string expression;
};

/// `spec.<type>.<event>`: one event of a source type.
struct source_event {
  std::string type; ///< the spec key, e.g. `kafka`
  std::string name; ///< the event name (map key)
  std::string json; ///< the event's spec as JSON text
  /// `filter`, which the core applies to every kind.
  std::optional<event_source_filter> filter;
  /// The kind's own model, from its spec step (dsl::kind_spec); empty for a type this program
  /// does not run.
  std::any spec;
};

/// The EventSource spec.
struct event_source_spec {
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  /// `template.serviceAccountName`: the identity the EventSource's Kubernetes calls use in
  /// cluster mode (empty: its namespace's `default`).
  std::string service_account_name;
  /// Every event, in manifest order.
  std::vector<source_event> events;

  /// The event `name` of `type`, or nullptr.
  const source_event* find(std::string_view type, std::string_view name) const;
};

/// An EventSource document.
struct event_source {
  object_meta metadata;
  event_source_spec spec;
};

} // namespace ganglion::dsl
