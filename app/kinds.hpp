#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/kinds.hpp"
#include "ganglion/core/runnability.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/load.hpp"
#include "ganglion/dsl/model.hpp"
#include "ganglion/http/transport.hpp"

#include "commands.hpp"

namespace ganglion::app {

/// `settings` for the kinds' registration (ganglion_add_kind's REGISTER and BUSES): the
/// kinds' own options as the command line gave them (`kind_options`), with the binary's
/// `--kubeconfig` and `--object-identity` (as run resolved it) added.
core::option_values settings_of(core::option_values kind_options, const std::string& kubeconfig,
                                const std::string& object_identity);

/// The command-line options every enabled transport declares (generated: registered_kinds.cpp
/// from their ganglion_add_kind() OPTIONS).
core::command_options transport_options();

/// The event source, trigger and EventBus kinds this binary runs: every transport's, and the
/// engine's own.
using kinds = core::kinds;

/// Every kind of the binary: each enabled transport's (registered_kinds.cpp, generated from
/// their ganglion_add_kind() calls) and the engine's own; `http` serves the webhooks.
kinds register_kinds(const std::shared_ptr<http::runtime>& http,
                     const core::option_values& settings = {});

/// Adds the kinds of every enabled transport to `out` (generated: registered_kinds.cpp).
void register_transports(kinds& out, const std::shared_ptr<http::runtime>& http,
                         const core::option_values& settings);

/// Loading options that read and check each kind of `registered` with its spec step.
dsl::load_options load_options_for(const kinds& registered, bool strict = false);

/// What `run` would refuse among `documents` with these kinds and `secrets_dir`.
std::vector<core::refusal> refusals_of(const std::vector<dsl::document>& documents,
                                       const kinds& registered, const std::string& secrets_dir);

} // namespace ganglion::app
