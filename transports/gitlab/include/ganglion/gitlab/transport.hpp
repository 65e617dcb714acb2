#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/hook_keeper.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::gitlab {

/// Settings of the gitlab transport (the same for every source).
struct options {
  /// When the hooks API is called (Argo: a first round after up to 2 s, then every minute for
  /// as long as the source runs).
  http::hook_keeper_options hooks = [] {
    http::hook_keeper_options o;
    o.rechecks = -1;
    return o;
  }();
  /// Longest one hooks API call may take.
  std::chrono::milliseconds api_timeout{10000};
  /// A PEM file of CAs trusted for the API instead of the system's; empty: the system's.
  std::string ca_file;
};

/// The `gitlab` source: serves `webhook` as a push source (ganglion/http/push_source.hpp),
/// checks `X-Gitlab-Token` against `secretToken` and publishes Argo's data
/// `{"headers":…,"body":…,"metadata":…}` as a CloudEvent of type `gitlab`. With `accessToken`
/// and `webhook.url` it keeps the hook of each group and project through GitLab's API
/// (http::hook_keeper), and deletes them when it stops if `deleteHookOnFinish`. Throws
/// core::source_error (a secret that cannot be read, the port).
core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts = {});

/// The gitlab source's check step: the spec's rules. Reads no secret, binds nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `gitlab` source.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::gitlab
