#pragma once

// How the cluster-mode tests start the binary against the test Kubernetes API server.

#include <string>
#include <vector>

#include "engine_process.hpp"
#include "files.hpp"
#include "kube/api_server.hpp"

namespace ganglion::e2e {

/// `ganglion run --from-cluster` without `-f`, through a kubeconfig of `server` (with `token`
/// when given; its context namespace `default`), then `more` arguments.
inline engine_options from_cluster(const test::kube::api_server& server,
                                   std::vector<std::string> more = {},
                                   const std::string& token = {}) {
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server.kubeconfig(token));
  engine_options options;
  options.manifest_file = false;
  options.extra_args = {"--from-cluster", "--kubeconfig", path};
  options.extra_args.insert(options.extra_args.end(), more.begin(), more.end());
  return options;
}

} // namespace ganglion::e2e
