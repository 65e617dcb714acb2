#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace ganglion::dsl::detail {

/// The value of `key` in map `node`; a null node when absent or when `node` is not a map.
YAML::Node child(const YAML::Node& node, std::string_view key);

/// True when the node is a scalar written without quotes or tag.
bool is_plain(const YAML::Node& node);

/// True for an absent or null node (Go decodes YAML null as "not set").
bool is_absent(const YAML::Node& node);

/// A scalar's text; empty for anything else.
std::string scalar_text(const YAML::Node& node);

/// A YAML 1.1 boolean (true/false/yes/no/on/off/y/n in their usual spellings).
std::optional<bool> scalar_bool(const YAML::Node& node);

/// A decimal integer (optional sign) that fits int64.
std::optional<std::int64_t> scalar_int(const YAML::Node& node);

/// A number (integer or floating point).
std::optional<double> scalar_number(const YAML::Node& node);

/// A short description for type errors: `a map`, `a list`, `"abc"`.
std::string describe(const YAML::Node& node);

} // namespace ganglion::dsl::detail
