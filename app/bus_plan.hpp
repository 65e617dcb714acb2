#pragma once

#include <string>
#include <vector>

#include "ganglion/core/bus_kind.hpp"
#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::app {

/// What `run` does with the EventBus of the manifests, decided without connecting.
struct bus_plan {
  /// The EventBus document used (or refused); null when none is loaded.
  const dsl::document* document = nullptr;
  /// The bus kind that opens it; null: the embedded bus runs.
  const core::bus_factory* kind = nullptr;
  /// Located at the EventBus: a warning for each thing `run` substitutes, an error for what
  /// stops it.
  std::vector<dsl::diagnostic> notes;
};

/// The plan for `documents` with the EventBus kinds `buses`. `bus_url`: `run --bus-url` is
/// given. The EventBus is the one the EventSources and Sensors name (`eventBusName`, default
/// `default`), or the only one loaded; its kind's plan says whether it runs, runs as the
/// embedded bus (a warning) or is refused (an error); a type no kind of `buses` runs is refused.
bus_plan plan_bus(const std::vector<dsl::document>& documents, bool bus_url,
                  const core::bus_registry& buses);

/// How `run` names the EventBus of `document` in its log: `EventBus default (a.yaml:5)`, or
/// `EventBus ns/default` for an object of the cluster; `where` is the line named.
std::string bus_label(const dsl::document& document, const dsl::source_location& where);

} // namespace ganglion::app
