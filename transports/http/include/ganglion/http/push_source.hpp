#pragma once

// The base of every HTTP push source (webhook, github, gitlab, slack, stripe, sns …): Argo's
// WebhookContext served on the http transport's server pool, the request read by the kind,
// its event published and the producer answered once the bus answered.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/server.hpp"
#include "ganglion/http/spec.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::http {

/// What a push source makes of one request.
struct push_outcome {
  /// The event's data to publish (Argo's bytes); when empty, `reply` is sent instead.
  std::optional<std::string> data;
  /// Several events' data to publish in order (publish_all), instead of `data`: the producer
  /// hears `accepted` once the bus accepted every one, else the answer to the first refusal.
  std::optional<std::vector<std::string>> batch;
  /// Sent when nothing is published: a handshake or a refusal.
  response reply;
  /// A refusal's `reason` label in `ganglion_events_rejected_total`; empty for a handshake.
  std::string rejected_reason;
  /// The answer once the bus accepted `data` (default: 200 `success`).
  std::optional<response> accepted;
  /// When set, the outcome is not known yet: `later` is called once with the function that
  /// takes it (from any thread; a kind that must call its provider first, e.g. sns's
  /// certificate fetch). The other fields are then unused.
  std::function<void(std::function<void(push_outcome)>)> later;

  /// Publish `data`.
  static push_outcome publish(std::string data);
  /// Publish each of `data`, in order (none: answer `accepted` at once).
  static push_outcome publish_all(std::vector<std::string> data);
  /// Refuse with `status` and a text `message`, counted under `reason`.
  static push_outcome refuse(int status, std::string reason, std::string message);
  /// Answer `reply` without publishing and without counting a rejection (a handshake).
  static push_outcome answer(response reply);
  /// The outcome `work` gives later to the function it is called with, exactly once.
  static push_outcome defer(std::function<void(std::function<void(push_outcome)>)> work);
};

/// Reads one request of a push source (its `Authorization` already masked as Argo masks it);
/// runs on a server thread, so it must not block (push_outcome::defer what must wait).
using push_handler = std::function<push_outcome(const request&)>;

/// One push source's route.
struct push_route {
  /// The kind's `webhook` context.
  webhook_spec webhook;
  /// What the kind makes of a request.
  push_handler handle;
  /// Refuse (405, `Allow`) a method other than `webhook.method`: Argo's webhook source does,
  /// most push kinds do not.
  bool check_method = false;
};

/// Serves `route.webhook` as the webhook source serves its endpoint: on its port (or the one
/// `--listen` address, routed by endpoint), with its TLS pair, `maxPayloadSize` (413),
/// `authSecret` (401), and the metrics `ganglion_events_{received,accepted,rejected}_total`.
/// Runs `route.handle` on each request, publishes its data as a CloudEvent of type `ctx.type`,
/// and answers only once the bus answered: 200, or 503 with `Retry-After` when the bus is
/// saturated, failing or stopping. Destroying the result releases the route.
/// Throws core::source_error (port in use, a secret missing, a bad port).
std::unique_ptr<core::source> start_push_source(const runtime& rt,
                                                const core::source_context& ctx,
                                                push_route route);

/// start_push_source on `servers`, at `bind_host` or on the one `listen` address.
std::unique_ptr<core::source> start_push_source(server_pool& servers,
                                                const std::string& bind_host,
                                                const std::optional<listen_address>& listen,
                                                const core::source_context& ctx,
                                                push_route route);

} // namespace ganglion::http
