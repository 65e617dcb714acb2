#pragma once

// The OpenAPI documents kubectl reads before it writes: just enough for `kubectl apply` with
// its default validation, no schemas.

#include <string>
#include <vector>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// `/openapi/v3`: one `paths` entry per group version served (`api/v1`, `apis/<g>/<v>`), its
/// `serverRelativeURL` carrying a hash of the resources served there.
json openapi_v3_index(const std::vector<resource_type>& types);

/// `/openapi/v3/api/v1` or `/openapi/v3/apis/<group>/<version>`: for each resource, the path
/// of one object with a PATCH operation naming its kind (`x-kubernetes-group-version-kind`)
/// and the query parameters `fieldValidation`, `fieldManager`, `force` — what kubectl checks
/// before it leaves validation to the server. Null when nothing is served there.
json openapi_v3_group_version(const std::vector<resource_type>& types, const std::string& group,
                              const std::string& version);

/// `/openapi/v2` as kubectl asks for it: the protobuf of an OpenAPI v2 document with only
/// `swagger` and `info`. kubectl's client-side validation then finds no schema for any kind
/// and lets every object through.
std::string openapi_v2_protobuf();

/// `/openapi/v2` as JSON: the same document.
json openapi_v2_json();

} // namespace ganglion::test::kube
