#pragma once

// Where cluster mode reaches the JetStream server that Argo's controller deploys for a managed
// `spec.jetstream` EventBus.

#include <string>

#include "ganglion/dsl/model/common.hpp"
#include "ganglion/nats/spec.hpp"

namespace ganglion::nats::detail {

/// `spec` of the managed `spec.jetstream` EventBus `meta` (read from the cluster; `status` is
/// its `status` as JSON text) pointed at its server: the URL and access Secret its
/// `status.config.jetstream` names (Argo's controller writes them once deployed), else those
/// the controller gives it, `nats://eventbus-<name>-js-svc.<namespace>.svc:4222` and Secret
/// `eventbus-<name>-js-client-auth` key `client-auth`; TLS verified against the CA of Secret
/// `eventbus-<name>-js-server` key `ca-cert`.
bus_spec argo_managed_jetstream(const dsl::object_meta& meta, bus_spec spec,
                                const std::string& status);

} // namespace ganglion::nats::detail
