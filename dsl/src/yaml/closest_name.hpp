#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::dsl::detail {

/// The name of `known` that `name` most likely misspells, for a "did you mean": one equal but
/// for case, else the nearest one at most two edits away (insert, delete, replace, or swap two
/// neighbours; letter case ignored) when that is fewer edits than a third of `name`'s length.
/// nullopt when none is that close.
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string_view>& known);

} // namespace ganglion::dsl::detail
