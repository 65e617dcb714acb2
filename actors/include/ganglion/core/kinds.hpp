#pragma once

#include "ganglion/core/bus_kind.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/kind_spec.hpp"

namespace ganglion::core {

/// The source, trigger and EventBus kinds a program runs, by Argo key; each transport adds its
/// own (`<x>::register_transport`).
struct kinds {
  source_registry sources;
  trigger_registry triggers;
  bus_registry buses;
};

/// The spec steps of `registered`, for dsl::load_options::kinds.
dsl::kind_specs spec_steps(const kinds& registered);

} // namespace ganglion::core
