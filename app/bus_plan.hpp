#pragma once

#include <string>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::app {

/// Which bus `run` uses for the manifests.
enum class bus_kind { embedded, jetstream, kafka };

/// What `run` does with the EventBus of the manifests, decided without connecting.
struct bus_plan {
  /// The EventBus document used (or refused); null when none is loaded.
  const dsl::document* document = nullptr;
  bus_kind kind = bus_kind::embedded;
  /// Located at the EventBus: a warning for each thing `run` substitutes, an error for what
  /// stops it.
  std::vector<dsl::diagnostic> notes;
};

/// The plan for `documents`. `bus_url`: `run --bus-url` is given. The EventBus is the one the
/// EventSources and Sensors name (`eventBusName`, default `default`), or the only one loaded.
/// A managed `spec.jetstream` runs on JetStream when read from the cluster or with `bus_url`,
/// else on the embedded bus; `spec.nats.native` on the embedded bus; `spec.nats.exotic` not.
bus_plan plan_bus(const std::vector<dsl::document>& documents, bool bus_url);

/// How `run` names the EventBus of `document` in its log: `EventBus default (a.yaml:5)`, or
/// `EventBus ns/default` for an object of the cluster; `where` is the line named.
std::string bus_label(const dsl::document& document, const dsl::source_location& where);

} // namespace ganglion::app
