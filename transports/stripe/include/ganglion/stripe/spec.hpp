#pragma once

// The stripe kind's model: `spec.stripe.<event>` of an EventSource, as its spec step reads it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::stripe {

/// `spec.stripe.<event>` (Argo's StripeEventSource): Stripe posts events to `webhook`; with
/// `createWebhook` the source makes that endpoint at Stripe with `apiKey`.
struct event_spec {
  http::webhook_spec webhook; ///< Argo's WebhookContext
  bool create_webhook = false;
  std::optional<dsl::secret_key_selector> api_key;
  /// Argo's filter: absent passes every event type, a list only those (an empty list none).
  std::optional<std::vector<std::string>> event_filter;
  std::map<std::string, std::string> metadata;
};

/// The spec step of the stripe source (reads and checks `spec.stripe.<event>`; an event holds
/// its endpoint and port alone, or its endpoint alone with `one_port`, `run --listen`).
dsl::kind_spec source_spec_step(bool one_port = false);

} // namespace ganglion::stripe
