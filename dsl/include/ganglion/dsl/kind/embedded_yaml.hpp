#pragma once

#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Parses the YAML document held in the string field `field` at `path` (Argo's `streamConfig`,
/// a Kafka source's `config`). The position of each of its top-level keys is recorded under
/// `path.<key>` so that diagnostics point into the string. A syntax error is reported at
/// `path`; nullopt then, and for an absent or empty field. A result that is not a map is
/// reported too.
std::optional<YAML::Node> load_embedded_yaml(const YAML::Node& field, const std::string& path,
                                             const load_context& cx);

} // namespace ganglion::dsl::detail
