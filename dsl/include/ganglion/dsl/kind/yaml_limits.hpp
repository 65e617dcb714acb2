#pragma once

#include <optional>
#include <string>

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

} // namespace ganglion::dsl::detail
