#pragma once

// Private: who an EventSource's or Sensor's Kubernetes calls act as (options::object_identity),
// and the namespace `namespace` mode confines them to.

#include <memory>
#include <string>
#include <string_view>

#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/object_identity.hpp"

namespace ganglion::kubernetes::detail {

/// The identity one object's calls use.
struct acting_identity {
  /// The client of its calls: an api_client::acting_as one in `impersonate` mode, else the
  /// shared one.
  std::shared_ptr<api_client> client;
  /// The impersonated user (`impersonate` mode); empty otherwise.
  std::string user;
  /// The one namespace it may act in (`namespace` mode); empty otherwise.
  std::string confined_to;
};

/// The identity of an object of namespace `ns` (the client's default namespace when empty)
/// and service account `service_account` (`default` when empty) under `mode`, over `shared`.
/// Throws std::invalid_argument when impersonation is asked of names Kubernetes would refuse.
acting_identity identity_for(identity_mode mode, std::shared_ptr<api_client> shared,
                             std::string_view ns, std::string_view service_account);

/// The refusal of `namespace` mode for `field` naming namespace `asked` of an object of kind
/// `owner` (`EventSource`, `Sensor`) in namespace `own`.
std::string outside_namespace(std::string_view field, std::string_view asked,
                              std::string_view owner, std::string_view own);

/// The refusal of `namespace` mode for the cluster-scoped `what` (e.g. `resource nodes`).
std::string cluster_scoped_refused(std::string_view what, std::string_view owner,
                                   std::string_view own);

/// Whether API path `path` (its query ignored) names something inside namespace `ns`:
/// `/api/<v>/namespaces/<ns>/<resource>…` or `/apis/<group>/<v>/namespaces/<ns>/<resource>…`.
bool path_in_namespace(std::string_view path, std::string_view ns);

/// ` as <user>` for messages of a call made as `user`; empty for the engine's own.
std::string as_user(std::string_view user);

} // namespace ganglion::kubernetes::detail
