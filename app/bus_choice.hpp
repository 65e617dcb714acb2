#pragma once

#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::app {

/// The bus the manifests ask for: null for the embedded bus (no EventBus), else a JetStream or
/// Kafka bus connected and ready. The EventBus used is the one the EventSources and Sensors
/// name (`eventBusName`, default `default`), or the only one loaded. Throws std::runtime_error
/// with the reason (an unsupported bus type, ambiguous EventBuses, an unreachable server).
std::shared_ptr<core::remote_bus> open_bus(const std::vector<dsl::document>& documents,
                                           const run_options& options,
                                           std::shared_ptr<const core::secret_store> secrets);

} // namespace ganglion::app
