#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/kinds.hpp"
#include "ganglion/core/runnability.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/load.hpp"
#include "ganglion/dsl/model.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::app {

/// The event source and trigger kinds this binary runs: every transport's, and the engine's own.
using kinds = core::kinds;

/// Registers the transports built in (http; nats and kafka unless disabled with
/// GANGLION_ENABLE_NATS/KAFKA=OFF); `http` serves the webhooks.
kinds register_kinds(const std::shared_ptr<http::runtime>& http);

/// Loading options that read and check each kind of `registered` with its spec step.
dsl::load_options load_options_for(const kinds& registered, bool strict = false);

/// What `run` would refuse among `documents` with these kinds and `secrets_dir`.
std::vector<core::refusal> refusals_of(const std::vector<dsl::document>& documents,
                                       const kinds& registered, const std::string& secrets_dir);

} // namespace ganglion::app
