#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ganglion::dsl::detail {

/// The path of map entry `key` under `parent`: `parent.key`, or `parent["odd.key"]` when the key
/// holds characters other than letters, digits, `_` and `-`.
std::string child_path(const std::string& parent, std::string_view key);

/// The path of sequence item `index` under `parent`: `parent[index]`.
std::string item_path(const std::string& parent, std::size_t index);

/// The path without its last component; empty for a top-level path.
std::string parent_path(const std::string& path);

} // namespace ganglion::dsl::detail
