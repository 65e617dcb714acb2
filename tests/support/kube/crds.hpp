#pragma once

// CustomResourceDefinitions: the resource a CRD written to the server makes it serve.

#include <string>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// The store key of `apiextensions.k8s.io/v1` `customresourcedefinitions`.
inline const std::string crd_key = "apiextensions.k8s.io/v1/customresourcedefinitions";

/// The resource `crd` defines: `spec.group`, its storage version (else its first served one),
/// `spec.names` (kind, plural, shortNames), `spec.scope`, and the version's status
/// subresource. Throws api_error 422 when a field is missing or the name is not
/// `<plural>.<group>`, as the API server's validation does.
resource_type crd_resource(const json& crd);

/// The status the API server gives an accepted CRD: `acceptedNames`, conditions
/// `NamesAccepted` and `Established` True, `storedVersions`.
json crd_status(const json& crd, const resource_type& type);

} // namespace ganglion::test::kube
