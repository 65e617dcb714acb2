#pragma once

// The EventBus model: which bus (`spec.<type>`), its spec as JSON, and the model its bus kind
// read (nats::bus_spec, kafka::bus_spec …; docs/adding-a-kind.md, "A bus kind").

#include <any>
#include <string>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

/// The EventBus spec: which bus, and its settings.
struct event_bus_spec {
  std::string type; ///< nats | jetstream | jetstreamExotic | kafka
  std::string json; ///< the bus's spec as JSON text
  /// What the spec step of the bus kind `type` read; empty when the program has no such kind.
  std::any spec;
};

/// An EventBus document.
struct event_bus {
  object_meta metadata;
  event_bus_spec spec;
};

} // namespace ganglion::dsl
