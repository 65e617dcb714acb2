#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ganglion/core/bus_kind.hpp"
#include "ganglion/core/command_options.hpp"
#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::app {

/// The `status` (JSON text) of the cluster object a document was read from (cluster mode).
using cluster_status_of = std::function<std::string(const dsl::document& document)>;

/// What `run` without `--bus-url` does with the EventBus of `documents` other than run it as
/// written, located at the EventBus, as the kinds of `buses` plan it: a bus Argo's controller
/// deploys that a file does not locate (`spec.nats.native`, `spec.jetstream`) runs as the
/// embedded bus (a warning); a bus ganglion cannot run (`spec.nats.exotic`, a type no kind
/// registers) or cannot choose stops `run` (an error).
std::vector<dsl::diagnostic> bus_diagnostics(const std::vector<dsl::document>& documents,
                                             const core::bus_registry& buses);

/// The bus the manifests ask for: null for the embedded bus (no EventBus, or one whose
/// server Argo's controller would deploy and a file does not locate: logged as a warning),
/// else the bus its kind in `buses` opened, connected and ready. The EventBus used is the one
/// the EventSources and Sensors name (`eventBusName`, default `default`), or the only one
/// loaded. The kind gets `--bus-url`, `--replica-id`, `--lease-ttl`, the kinds' own options
/// (`settings`) and, read from the cluster, the object's status (`status`). Throws
/// std::runtime_error with the reason (an unsupported bus type, ambiguous EventBuses, an
/// unreachable server).
std::shared_ptr<core::remote_bus> open_bus(const std::vector<dsl::document>& documents,
                                           const run_options& options,
                                           std::shared_ptr<const core::secret_store> secrets,
                                           const core::bus_registry& buses,
                                           const core::option_values& settings,
                                           const cluster_status_of& status = {});

} // namespace ganglion::app
