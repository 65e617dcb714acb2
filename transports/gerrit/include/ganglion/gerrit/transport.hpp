#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::gerrit {

/// Settings of the gerrit transport (the same for every source).
struct options {
  /// How long one call to Gerrit's REST API may take.
  std::chrono::milliseconds request_timeout{10000};
  /// Argo's hooks manager: every project's hook is checked (and re-created) this often.
  std::chrono::milliseconds recheck{60000};
  /// First wait after a failed registration pass; doubles up to `max_retry`.
  std::chrono::milliseconds first_retry{1000};
  /// Longest wait between two failed registration passes.
  std::chrono::milliseconds max_retry{30000};
  /// Argo's random delay before the first registration (replicas racing): below this.
  std::chrono::milliseconds first_delay{2000};
  /// Failed registration passes in a row after which the source fails (phase Error, the engine
  /// restarts it with backoff); credentials Gerrit refuses (401, 403) fail it at once.
  int attempts = 5;
};

/// The `gerrit` source: serves `webhook` through the http transport (as the webhook source,
/// `run --listen` included) and publishes each POST as a CloudEvent of type `gerrit` with
/// Argo's data `{"headers":…,"body":…,"metadata":{…}}`. With `auth` and `webhook.url` it
/// registers hook `hookName` on each project through the webhooks plugin's REST API, off the
/// server threads, keeps it registered, and deletes it on stop when `deleteHookOnFinish`.
core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts = {});

/// The gerrit source's check step: projects, gerritBaseURL, auth. Reads no secret, connects to
/// nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `gerrit` source on `rt`'s server pool and client.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::gerrit
