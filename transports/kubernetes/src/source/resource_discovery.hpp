#pragma once

// Private: where the resource source's collection is, from the API server's discovery.

#include <string>

#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"

namespace ganglion::kubernetes::detail {

/// `/api/<version>` for the core group, else `/apis/<group>/<version>`.
std::string group_version_path(const resource_event_spec& spec);

/// The collection to list and watch: discovery (`group_version_path`) says whether the
/// resource is namespaced; a namespaced one in `spec.namespace_` (all namespaces when empty).
/// Throws std::runtime_error when discovery fails, does not list the resource, a namespace
/// is given for a cluster-scoped resource, or the resource is cluster-scoped and
/// `cluster_scoped_refusal` is not empty (it is the message then). Blocking.
std::string discover_collection(api_client& client, const resource_event_spec& spec,
                                const std::string& cluster_scoped_refusal = {});

} // namespace ganglion::kubernetes::detail
