#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model/document.hpp"

namespace ganglion::dsl {

/// The (EventSource, eventName) of every event a set of EventSources defines, the EventSource
/// as object_meta::namespaced_name() (`<namespace>/<name>` when it names a namespace).
using provided_events = std::set<std::pair<std::string, std::string>>;

/// The events the EventSources of `documents` define.
provided_events events_provided(const std::vector<document>& documents);

/// A located warning for each dependency of the Sensor of `doc` that waits for an event
/// `provided` lacks: at `spec.dependencies[i].eventSourceName` when no EventSource has that
/// name, else at its `eventName`, with a "did you mean" when a provided name is close. One per
/// dependency, a warning even with --strict (the EventSource may be defined elsewhere); none
/// for other documents. `validate` and `run` both report these.
std::vector<diagnostic> unresolved_dependencies(const document& doc,
                                                const provided_events& provided);

/// `unresolved_dependencies` of every Sensor of `documents`, against the events they define.
std::vector<diagnostic> unresolved_dependencies(const std::vector<document>& documents);

} // namespace ganglion::dsl
