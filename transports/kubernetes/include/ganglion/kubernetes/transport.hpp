#pragma once

#include <string>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/object_identity.hpp"

namespace ganglion::kubernetes {

/// Settings of the kubernetes transport (the same for every source and trigger).
struct options {
  /// `--kubeconfig PATH`; empty: `$KUBECONFIG`, `~/.kube/config`, in-cluster (load_config).
  std::string kubeconfig;
  client_options client;
  /// Whose rights the resource source, the k8s and argoWorkflow triggers and the `configmap`
  /// trigger source use (`--object-identity`); `engine`: the credentials' own.
  identity_mode object_identity = identity_mode::engine;
  /// Trigger sources (`git`) may clone plain `http://` URLs, never with creds or githubApp;
  /// off: https and ssh only.
  bool allow_plain_http_git = false;
  /// The GitHub REST API root a `git.githubApp` exchanges its JWT at (GitHub Enterprise:
  /// `https://<host>/api/v3`); empty: `https://api.github.com`. Must be https.
  std::string github_api_url;
  /// A PEM bundle that git over https and the GitHub API trust instead of the system's CAs;
  /// empty: the system's.
  std::string artifact_ca_file;
};

/// Registers the kinds that run through the Kubernetes API.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

/// The command-line options of the trigger sources (`run`, `validate` and `test`):
/// `--git-allow-http`, `--github-api-url URL`, `--artifact-ca-file PATH`.
core::command_options command_options();

/// `options` from the command line: those options, and the binary's own `--kubeconfig` and
/// `--object-identity` (as run resolved it; empty: engine). Throws std::invalid_argument for
/// an unknown identity mode.
options options_from(const core::option_values& values);

} // namespace ganglion::kubernetes
