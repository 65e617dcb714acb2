#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::bitbucket {

/// Settings of the bitbucket transport (the same for every source).
struct options {
  /// Bitbucket Cloud's API root (a test points it at a stand-in).
  std::string cloud_api_url = "https://api.bitbucket.org/2.0";
  /// How long one call to the provider's API may take.
  std::chrono::milliseconds request_timeout{10000};
  /// First wait after a failed registration pass; doubles up to `max_retry`.
  std::chrono::milliseconds first_retry{1000};
  /// Longest wait between two failed registration passes.
  std::chrono::milliseconds max_retry{30000};
  /// Argo's random delay before a bitbucket source's first registration: below this.
  std::chrono::milliseconds cloud_first_delay{5000};
  /// Argo's random delay before a bitbucketserver source's first registration: below this.
  std::chrono::milliseconds server_first_delay{2000};
  /// Failed registration passes in a row after which the source fails (phase Error, the engine
  /// restarts it with backoff); credentials the provider refuses (401, 403) fail it at once.
  int attempts = 5;
};

/// The `bitbucket` source (Bitbucket Cloud): serves `webhook` through the http transport (as
/// the webhook source, `run --listen` included) and publishes each request as a CloudEvent of
/// type `bitbucket` with Argo's data `{"headers":…,"body":…,"metadata":{…}}`. With credentials
/// and `webhook.url` it registers a hook on each repository through API 2.0 once, off the
/// server threads (replacing a hook with the same URL, as Argo), and deletes it on stop when
/// `deleteHookOnFinish`.
core::source_factory make_cloud_source_factory(std::shared_ptr<http::runtime> rt,
                                               options opts = {});

/// The bitbucket source's check step: a repository, and auth. Reads no secret, connects to
/// nothing.
std::vector<std::string> check_cloud_source(const core::source_context& ctx);

/// The `bitbucketserver` source (Bitbucket Server / Data Center): serves `webhook` as the
/// bitbucket source, refuses (400, counted) a request whose `X-Hub-Signature` does not match
/// `webhookSecret`, and publishes each other one as a CloudEvent of type `bitbucketserver` with
/// Argo's data. With `accessToken`, `webhook.url` and repositories or projects it keeps a hook on
/// each repository through REST API 1.0, off the server threads, every `checkInterval` (created,
/// or updated when its events or secret changed), and deletes it on stop when
/// `deleteHookOnFinish`.
core::source_factory make_server_source_factory(std::shared_ptr<http::runtime> rt,
                                                options opts = {});

/// The bitbucketserver source's check step: the base URL, events, what is not run yet.
std::vector<std::string> check_server_source(const core::source_context& ctx);

/// Registers the `bitbucket` and `bitbucketserver` sources on `rt`'s server pool and client.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::bitbucket
