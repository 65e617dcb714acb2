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

#include "commands.hpp"

namespace ganglion::app {

/// What the command line tells every kind's registration: a kind's REGISTER call
/// (ganglion_add_kind) reads it as `settings`.
struct kind_settings {
  /// `--kubeconfig PATH`; empty: the Kubernetes kinds look where kubectl does.
  std::string kubeconfig;
  /// `--grpc-ca-file PATH`; empty: generic sources verify TLS servers with the system's CAs.
  std::string grpc_ca_file;
  /// `--object-identity`, as run resolved it (`impersonate`, `namespace`, `engine`); empty:
  /// `engine`.
  std::string object_identity;
  /// `--git-allow-http`: trigger sources may clone git over plain http (never with
  /// credentials); off: https and ssh only.
  bool git_allow_http = false;
  /// `--github-api-url URL`: where a `git.githubApp` exchanges its JWT (GitHub Enterprise's
  /// `https://<host>/api/v3`); empty: `https://api.github.com`.
  std::string github_api_url;
  /// `--artifact-ca-file PATH`: the CAs that git over https and the GitHub API are verified
  /// with instead of the system's; empty: the system's.
  std::string artifact_ca_file;
};

/// `settings` for `kubeconfig`, `object_identity` and the trigger sources' `options`.
kind_settings settings_of(const std::string& kubeconfig, const std::string& object_identity,
                          const trigger_source_options& options);

/// The event source and trigger kinds this binary runs: every transport's, and the engine's own.
using kinds = core::kinds;

/// Every kind of the binary: each enabled transport's (registered_kinds.cpp, generated from
/// their ganglion_add_kind() calls) and the engine's own; `http` serves the webhooks.
kinds register_kinds(const std::shared_ptr<http::runtime>& http,
                     const kind_settings& settings = {});

/// Adds the kinds of every enabled transport to `out` (generated: registered_kinds.cpp).
void register_transports(kinds& out, const std::shared_ptr<http::runtime>& http,
                         const kind_settings& settings);

/// Loading options that read and check each kind of `registered` with its spec step.
dsl::load_options load_options_for(const kinds& registered, bool strict = false);

/// What `run` would refuse among `documents` with these kinds and `secrets_dir`.
std::vector<core::refusal> refusals_of(const std::vector<dsl::document>& documents,
                                       const kinds& registered, const std::string& secrets_dir);

} // namespace ganglion::app
