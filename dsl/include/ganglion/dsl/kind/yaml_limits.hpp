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
/// crosses `max_nodes`. A recursive alias is refused too. The error, located in `file`, or
/// nullopt; a syntax error is left to the parse that follows.
std::optional<diagnostic> check_yaml_limits(const std::string& text, const std::string& file,
                                            const load_options& options);

/// Whether `text` may hold an alias (a `*` anywhere). Without one, the tree yaml-cpp builds is
/// no larger than the text (bounded by max_file_bytes), so the limits can be checked on it with
/// within_limits() instead of a second parse.
bool may_alias(const std::string& text);

/// Whether the trees of `roots` stay within the depth and node limits of `options` (the node
/// limit counts over all of them, as for a file). Stops counting at the first limit crossed.
bool within_limits(const std::vector<YAML::Node>& roots, const load_options& options);

} // namespace ganglion::dsl::detail
