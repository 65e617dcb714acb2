#pragma once

#include <nats/nats.h>

#include "client/connection.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/nats/spec.hpp"

namespace ganglion::nats {

/// Creates the bus's stream (`<stream>` with subjects `<stream>.*.*`, file storage, the
/// manifest's limits) or updates an existing one to the manifest's settings. Throws
/// std::runtime_error with the server's reason.
void ensure_stream(jsCtx* js, const bus_spec& spec);

/// The credentials in an EventBus `accessSecret`: `username:`/`password:` lines (as Argo
/// writes them), a `token:` line, or a bare token. Throws connection_error naming the secret.
credentials parse_access_secret(const dsl::secret_key_selector& secret,
                                const core::secret_store* secrets);

} // namespace ganglion::nats
