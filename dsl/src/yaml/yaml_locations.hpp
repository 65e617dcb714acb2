#pragma once

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Records the position of every node of `root` in cx.doc.locations (map entries at their key,
/// sequence items at the item) and reports duplicate keys and nesting deeper than
/// cx.options.max_depth levels.
/// Returns false when the document is too deep to be processed further.
bool record_locations(const YAML::Node& root, const load_context& cx);

} // namespace ganglion::dsl::detail
