#pragma once

// The resources a test server serves, and its discovery documents.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// The resources served by default: core v1, apps/v1, batch/v1 and argoproj.io/v1alpha1.
std::vector<resource_type> builtin_resources();

/// Whether `type` is one Kubernetes itself defines (its list items carry no kind/apiVersion).
bool is_builtin(const resource_type& type);

/// `kind` lowercased: the singular name discovery gives.
std::string singular_of(const resource_type& type);

/// The resource of `api_version` whose kind or plural is `kind` (case-insensitive kind).
std::optional<resource_type> find_resource(const std::vector<resource_type>& types,
                                           std::string_view api_version, std::string_view kind);

/// `/api`: APIVersions; `address` is `127.0.0.1:<port>`.
json api_versions(const std::string& address);
/// `/apis`: APIGroupList of every group but the core one.
json api_group_list(const std::vector<resource_type>& types);
/// `/apis/<group>`: APIGroup, or null when no resource has it.
json api_group(const std::vector<resource_type>& types, const std::string& group);
/// `/api/v1` or `/apis/<group>/<version>`: APIResourceList, or null when nothing is served there.
json api_resource_list(const std::vector<resource_type>& types, const std::string& group,
                       const std::string& version);

} // namespace ganglion::test::kube
