#pragma once

// One YAML document of a manifest: its kind, its typed body and where each node is.

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model/event_bus.hpp"
#include "ganglion/dsl/model/event_source.hpp"
#include "ganglion/dsl/model/sensor.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

/// One YAML document of a manifest file.
struct document {
  source_location where; ///< the document's first line
  std::string api_version;
  std::string kind;
  std::string name;
  /// monostate for kinds ganglion does not run (Role, Pod …) and for documents that failed to load.
  std::variant<std::monostate, event_source, sensor, event_bus> body;
  /// YAML path → position of every node of the document, for diagnostics.
  std::map<std::string, source_location> locations;
  /// A digest (32 hex digits) of the canonical JSON of each part of the spec, compared by a
  /// hot reload to restart only what changed. EventSource: `event/<name>` per named event (with its type key), `eventsource`
  /// for the rest; Sensor: `dependency/<name>`, `trigger/<template.name>`, `sensor` for the
  /// rest; EventBus: `eventbus`.
  std::map<std::string, std::string> fingerprints;
  /// Every Secret key the document references (each `SecretKeySelector` of Argo's schema, in
  /// modelled and unmodelled parts alike), with its YAML path.
  std::vector<std::pair<std::string, secret_key_selector>> secret_refs;

  /// The position of `path`, or of its nearest ancestor that exists.
  source_location locate(const std::string& path) const;
};

} // namespace ganglion::dsl
