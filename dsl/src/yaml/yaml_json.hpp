#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace ganglion::dsl::detail {

/// Converts YAML to JSON the way Kubernetes decodes it into Argo's types: scalars take the type
/// of the schema field (`type` code, see yaml_schema.hpp); where the schema says nothing, plain
/// scalars become null, booleans, integers or numbers when they read as such, else strings.
nlohmann::json yaml_to_json(const YAML::Node& node, std::string_view type = "a");

} // namespace ganglion::dsl::detail
