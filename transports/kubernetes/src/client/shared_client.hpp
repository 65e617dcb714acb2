#pragma once

#include <memory>

#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes::detail {

/// The process's API client for `opts.kubeconfig`, created on first use from
/// load_config(config_sources::from_environment(opts.kubeconfig)) and shared by every trigger
/// and source that names the same kubeconfig (the first caller's client_options apply). Throws config_error (naming every place looked at) when no
/// configuration applies.
std::shared_ptr<api_client> shared_client(const options& opts);

} // namespace ganglion::kubernetes::detail
