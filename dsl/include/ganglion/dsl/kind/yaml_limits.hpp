#pragma once

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/node/node.h>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::dsl::detail {

/// Checks the YAML `text` of `file` against the depth and node limits of `options` in one
/// streaming pass, before any node is built: aliases are counted at the size of what they
/// expand to (without expanding them), so a "billion laughs" is refused at the alias that
/// crosses `max_nodes`. A recursive alias is refused too, and a ',' after a document's root. The error, located in `file`, or
/// nullopt; a syntax error is left to the parse that follows.
std::optional<diagnostic> check_yaml_limits(const std::string& text, const std::string& file,
                                            const load_options& options);

/// Whether `text` may hold an alias (a `*` anywhere). Without one, the tree yaml-cpp builds is
/// no larger than the text (bounded by max_file_bytes), so the limits are checked while the
/// loader walks it (count_nodes()) instead of in a second parse.
bool may_alias(const std::string& text);

/// Whether `text` may stall yaml-cpp (a `,` anywhere): a ',' after a document's root makes
/// YAML::LoadAll loop for ever, which check_yaml_limits() refuses at that ','.
bool may_stall(const std::string& text);

/// Counts `node` and what it holds into `nodes` (the count of the whole file so far), `node`
/// being at nesting level `depth` (1 for a document); false once the depth or node limit of
/// `options` is crossed, where counting stops.
bool count_nodes(const YAML::Node& node, int depth, std::size_t& nodes,
                 const load_options& options);

} // namespace ganglion::dsl::detail
