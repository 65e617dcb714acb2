#pragma once

#include <string>

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes {

/// Settings of the kubernetes transport (the same for every source and trigger).
struct options {
  /// `--kubeconfig PATH`; empty: `$KUBECONFIG`, `~/.kube/config`, in-cluster (load_config).
  std::string kubeconfig;
  client_options client;
};

/// Registers the kinds that run through the Kubernetes API.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

} // namespace ganglion::kubernetes
