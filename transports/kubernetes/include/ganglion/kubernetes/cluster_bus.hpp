#pragma once

// Where cluster mode reaches the JetStream server that Argo's controller deploys for a managed
// `spec.jetstream` EventBus.

#include <string>

#include "ganglion/dsl/model.hpp"

namespace ganglion::kubernetes {

/// The JetStream settings of the managed `spec.jetstream` EventBus `bus` (read from the
/// cluster; `status` is its `status` as JSON text): the URL and access Secret its
/// `status.config.jetstream` names (Argo's controller writes them once deployed), else those
/// the controller gives it, `nats://eventbus-<name>-js-svc.<namespace>.svc:4222` and Secret
/// `eventbus-<name>-js-client-auth` key `client-auth`; TLS verified against the CA of Secret
/// `eventbus-<name>-js-server` key `ca-cert`. `bus.spec.jetstream` must be set.
dsl::jetstream_bus argo_managed_jetstream(const dsl::event_bus& bus, const std::string& status);

} // namespace ganglion::kubernetes
