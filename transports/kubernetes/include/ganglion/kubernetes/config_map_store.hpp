#pragma once

#include <memory>
#include <string>

#include "ganglion/core/source_store.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes {

/// ConfigMap `name` of namespace `namespace_name` as a core::source_store, as Argo's calendar
/// keeps its last tick (`persistence.configMap`): a value is `data[<key>]`. A load of a
/// ConfigMap that does not exist creates it when `create` (else throws, as Argo's start fails);
/// a save is a JSON merge patch of that one key (so the events sharing a ConfigMap never undo
/// each other's writes), made on the store's own thread, retried with backoff (5 attempts),
/// later saves of a key replacing one not yet made. Requests go through `client` (an
/// api_client::acting_as one acts as that user).
std::shared_ptr<core::source_store> make_config_map_store(std::shared_ptr<api_client> client,
                                                          std::string namespace_name,
                                                          std::string name, bool create);

/// Cluster mode's ConfigMap stores: the client of `opts.kubeconfig`, each EventSource acting as
/// `opts.object_identity` says (its service account when impersonating); one store per
/// namespace, ConfigMap and identity while it is used.
core::config_map_stores config_map_stores(options opts);

} // namespace ganglion::kubernetes
