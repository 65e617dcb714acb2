#pragma once

// Whose rights the Kubernetes calls an EventSource or Sensor makes use (issue 31: namespaces
// are boundaries). The engine's own calls (cluster mode's watches of the Argo kinds, their
// status, its Secrets) always use the engine's credentials.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::kubernetes {

class api_client;

/// `--object-identity`: how the resource source, the k8s and argoWorkflow triggers and the
/// `configmap` trigger source act.
enum class identity_mode {
  /// With the engine's credentials, anywhere they reach (`-f` files: the operator's own).
  engine,
  /// As the object's service account through impersonation (`Impersonate-User:
  /// system:serviceaccount:<namespace>:<serviceAccountName or default>`): Kubernetes RBAC
  /// confines it as it confines Argo's per-object pods.
  impersonate,
  /// With the engine's credentials, but only in the object's own namespace and never on a
  /// cluster-scoped resource; what leaves it is refused before any call.
  namespace_,
};

/// `engine`, `impersonate` or `namespace`.
std::string_view to_string(identity_mode mode);

/// The mode `name` names (as to_string writes it); nullopt for another name.
std::optional<identity_mode> identity_mode_named(std::string_view name);

/// The mode of `name`, `engine` when empty; throws std::invalid_argument for another name.
identity_mode identity_mode_or_engine(std::string_view name);

/// `system:serviceaccount:<ns>:<service_account>` (`default` when `service_account` is empty).
/// Throws std::invalid_argument when `ns` is not a namespace name or `service_account` not a
/// service account name.
std::string service_account_user(std::string_view ns, std::string_view service_account);

/// What may_impersonate found.
struct impersonation_check {
  bool allowed = false;
  /// Why not: the API's reason, the namespaces refused, or the failed request.
  std::string reason;
};

/// Whether the engine may impersonate the service accounts of `namespaces` (cluster-wide when
/// empty): one SelfSubjectAccessReview (`impersonate` `serviceaccounts`, group "") per
/// namespace. Blocking.
impersonation_check may_impersonate(api_client& client, const std::vector<std::string>& namespaces);

/// The mode of cluster mode when `--object-identity` is not given: `impersonate` when
/// may_impersonate allows it, else `namespace` after one warning line saying how to grant it
/// (deploy/rbac) or choose a mode explicitly.
identity_mode cluster_identity_mode(api_client& client, const std::vector<std::string>& namespaces);

} // namespace ganglion::kubernetes
