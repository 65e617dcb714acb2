#pragma once

#include <nlohmann/json.hpp>

namespace ganglion::kubernetes::detail {

/// Argo's update: mergo.Merge(live, object, mergo.WithOverride) on unstructured objects. Maps
/// merge key by key, recursively; any other value of `object` replaces the live one, except an
/// empty one (null, false, 0, "", [] or {}), which leaves it as it is.
void merge_into(nlohmann::json& live, const nlohmann::json& object);

} // namespace ganglion::kubernetes::detail
