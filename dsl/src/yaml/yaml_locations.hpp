#pragma once

#include <cstddef>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Records the position of every node of `root` in cx.doc.locations (map entries at their key,
/// sequence items at the item) and reports duplicate keys. Counts the nodes into `nodes` (the
/// count of the file so far) and returns false, reporting nothing, once the document crosses
/// cx.options.max_depth levels or the file cx.options.max_nodes nodes: the caller locates it.
bool record_locations(const YAML::Node& root, const load_context& cx, std::size_t& nodes);

} // namespace ganglion::dsl::detail
