#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"

namespace ganglion::http {
class client;
struct runtime;
} // namespace ganglion::http

namespace ganglion::gcp {

/// Settings of the gcp transport (the same for every source).
struct options {
  /// The Pub/Sub REST API root (`https://pubsub.googleapis.com`), used with the credentials.
  std::string api_url = "https://pubsub.googleapis.com";
  /// `host:port` of a Pub/Sub emulator: the API is `http://<host:port>`, sent without
  /// credentials, as Google's clients do when `PUBSUB_EMULATOR_HOST` is set. nullopt: that
  /// variable, read when a source starts.
  std::optional<std::string> emulator_host;
  /// `maxMessages` of each `:pull`.
  int max_messages = 100;
  /// How long one `:pull` may wait for messages (a pull that waited so long is empty).
  std::chrono::milliseconds pull_timeout{60000};
  /// How long any other call (token, admin, acknowledge) may take.
  std::chrono::milliseconds call_timeout{30000};
  /// Largest `:pull` response taken (base64 data of `max_messages` messages of up to 10 MB).
  std::size_t max_response_bytes = std::size_t{256} << 20;
  /// First wait after a failed call or a refusal by the bus; doubles up to `max_retry_delay`.
  std::chrono::milliseconds min_retry_delay{100};
  /// Longest wait between two attempts.
  std::chrono::milliseconds max_retry_delay{5000};
  /// How long Pub/Sub may keep failing before the source fails (the engine restarts it with
  /// backoff, phase Error with the reason).
  std::chrono::milliseconds lost_after{60000};
  /// Wait after a pull that answered at once with no message (no hot loop on such a server).
  std::chrono::milliseconds empty_pull_delay{200};
};

/// The `pubSub` source: prepares the subscription as Argo does (checks it; with a topic,
/// creates the subscription, and the topic, when missing), then pulls with `:pull`, publishes
/// each message as a CloudEvent of type `pubsub` (Argo's) with Argo's data
/// `{"id":…,"body":…,"attributes":{…},"publishTime":…,"metadata":{…}}`, `:acknowledge`s it
/// once the bus accepted it and nacks it (`:modifyAckDeadline` 0, as Argo's Nack) when the bus
/// refused, so Pub/Sub delivers it again. Requests go through `requests` (the shared libcurl
/// client). Throws core::source_error when the subscription cannot be prepared.
core::source_factory make_source_factory(std::shared_ptr<http::client> requests, options opts = {});

/// The pubSub source's check step: the spec's rules. Reads no secret, connects to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `pubSub` source on the http runtime's client.
void register_transport(core::source_registry& sources, const std::shared_ptr<http::runtime>& http,
                        options opts = {});

} // namespace ganglion::gcp
