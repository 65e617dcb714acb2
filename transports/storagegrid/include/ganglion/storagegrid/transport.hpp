#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::storagegrid {

/// Settings of the storagegrid transport (the same for every source).
struct options {
  /// How long one call to the management API may take.
  std::chrono::milliseconds request_timeout{10000};
  /// First wait after a failed registration; doubles up to `max_retry`.
  std::chrono::milliseconds first_retry{1000};
  /// Longest wait between two failed registrations.
  std::chrono::milliseconds max_retry{30000};
  /// Failed registrations in a row after which the source fails (phase Error, restarted with
  /// backoff); a token the API refuses (401, 403) fails it at once.
  int attempts = 5;
};

/// The `storageGrid` source: serves `webhook` through the http transport (as the webhook
/// source, `run --listen` included), answers every request 200 with Argo's SNS-like
/// PublishResponse, and publishes each notification (the form-encoded `Action=Publish&Message=…`
/// body read as Argo reads it) whose first record's object key passes `filter` as a CloudEvent
/// of type `storageGrid` with Argo's data `{"notification":{…},"metadata":{…}}`. Off the server
/// threads it registers the endpoint of `topicArn` (unless the API lists it already) and the
/// bucket's notification configuration for `events` through the management API at `apiURL`.
core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts = {});

/// Registers the `storageGrid` source on `rt`'s server pool and client.
void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts = {});

} // namespace ganglion::storagegrid
