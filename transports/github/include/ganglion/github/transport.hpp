#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/hook_keeper.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::github {

/// Settings of the github transport (the same for every source).
struct options {
  /// When the hooks API is called (Argo: a first round after up to 2 s, then 10 more a minute
  /// apart).
  http::hook_keeper_options hooks;
  /// Longest one hooks API call (and the App token exchange) may take (Argo: 10 s).
  std::chrono::milliseconds api_timeout{10000};
  /// A PEM file of CAs trusted for the API instead of the system's; empty: the system's.
  std::string ca_file;
};

/// The `github` source: serves `webhook` as a push source (ganglion/http/push_source.hpp),
/// verifies each delivery's signature with `webhookSecret` and publishes Argo's data
/// `{"headers":…,"body":…,"metadata":…}` as a CloudEvent of type `github`. With credentials
/// (`apiToken` or `githubApp`) and `webhook.url` it keeps the hook of each repository and
/// organization through GitHub's API (http::hook_keeper), and deletes them when it stops if
/// `deleteHookOnFinish`. Throws core::source_error (a secret that cannot be read, the port).
core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts = {});

/// The github source's check step: the spec's rules. Reads no secret, binds nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `github` source.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::github
