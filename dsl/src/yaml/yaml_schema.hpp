#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// One object type of Argo's API: its name and `field:type` list (codes in gen_argo_schema.py).
struct schema_entry {
  const char* name;
  const char* fields;
};

/// The generated table of Argo Events' object types (yaml_argo_schema.cpp).
const std::vector<schema_entry>& argo_schema_table();

/// The type code of `field` in object type `type`; nullptr when Argo has no such field.
const std::string* schema_field_type(std::string_view type, std::string_view field);

/// Checks `node` (at `path`) against the type code `type`: reports fields Argo does not know
/// (warning, error when strict), values of the wrong shape or scalar type, and non-scalar keys.
void check_schema(const YAML::Node& node, std::string_view type, const std::string& path,
                  const load_context& cx);

} // namespace ganglion::dsl::detail
