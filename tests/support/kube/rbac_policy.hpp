#pragma once

// The RBAC resources a server with `rbac` serves, and the bootstrap policy it starts with.

#include <vector>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// `rbac.authorization.k8s.io/v1` roles, rolebindings, clusterroles, clusterrolebindings, and
/// core v1 serviceaccounts (`sa`).
std::vector<resource_type> rbac_resources();

/// The ClusterRoles and ClusterRoleBindings an API server bootstraps that matter here:
/// `cluster-admin` (bound to `system:masters`), `system:discovery` and `system:basic-user`
/// (bound to `system:authenticated`), `system:public-info-viewer` (bound to everyone).
std::vector<json> bootstrap_policy();

} // namespace ganglion::test::kube
