#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// The (type, name) of every event of an EventSource.
std::vector<std::pair<std::string, std::string>> source_events(const dsl::event_source& es);

} // namespace ganglion::core
