#pragma once

// The gerrit kind's model: `spec.gerrit.<event>` of an EventSource, as its spec step reads it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::gerrit {

/// `spec.gerrit.<event>` (Argo's GerritEventSource): Gerrit's webhooks plugin posts the events
/// of `projects` to `webhook`, and the source registers that hook as remote `hookName`.
struct event_spec {
  http::webhook_spec webhook;      ///< Argo's WebhookContext
  std::string hook_name;           ///< the webhooks plugin's remote name
  std::vector<std::string> events; ///< Argo refuses a missing list, not an empty one
  std::optional<dsl::basic_auth> auth;
  std::string gerrit_base_url;
  bool delete_hook_on_finish = false;
  std::map<std::string, std::string> metadata;
  std::vector<std::string> projects;
  bool ssl_verify = false;
  std::int64_t max_tries = 0;

  /// Argo's NeedToCreateHooks: with credentials and a public `webhook.url` the source registers
  /// its hook on each project; otherwise it only serves the endpoint.
  bool need_to_create_hooks() const { return auth.has_value() && !webhook.url.empty(); }
};

/// The spec step of the gerrit source (reads and checks `spec.gerrit.<event>`; an event holds
/// its endpoint and port alone, or its endpoint alone with `one_port`, `run --listen`).
dsl::kind_spec source_spec_step(bool one_port = false);

} // namespace ganglion::gerrit
