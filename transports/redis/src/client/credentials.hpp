#pragma once

// Private: a redis source's server settings, its secrets read.

#include <string>

#include "client/connection.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/redis/spec.hpp"

namespace ganglion::redis {

/// The settings to connect with: the password and TLS PEMs read from `secrets`; `field` (the
/// spec's path, `redis.orders`) prefixes the messages. Throws connection_error for a missing
/// secret or a client certificate without its key.
server_settings resolve_server(const server_spec& spec, const core::secret_store* secrets,
                               const std::string& field);

} // namespace ganglion::redis
