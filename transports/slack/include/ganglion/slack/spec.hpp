#pragma once

// The slack kinds' models: `spec.slack.<event>` of an EventSource and `template.slack` of a
// Sensor trigger, as their spec steps read them.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::slack {

/// `spec.slack.<event>`: Slack's Events API, interactive components and slash commands, pushed
/// to `webhook.endpoint`.
struct event_spec {
  /// `signingSecret`: verifies `X-Slack-Signature` (required, as in Argo).
  std::optional<dsl::secret_key_selector> signing_secret;
  /// `token`: the verification token an Events API request must carry (required).
  std::optional<dsl::secret_key_selector> token;
  http::webhook_spec webhook;
  std::map<std::string, std::string> metadata;
};

/// `template.slack.thread`.
struct thread_spec {
  std::string message_aggregation_key;       ///< `messageAggregationKey`
  bool broadcast_message_to_channel = false; ///< `broadcastMessageToChannel`
};

/// `template.slack.sender`.
struct sender_spec {
  std::string username;
  std::string icon; ///< `:emoji:` or an http(s) URL
};

/// `template.slack` (its `parameters` are the core's: dsl::trigger_action).
struct trigger_spec {
  std::optional<dsl::secret_key_selector> slack_token; ///< `slackToken`
  std::string channel;
  std::string message;
  std::string attachments; ///< a JSON array, as text
  std::string blocks;      ///< a JSON array, as text
  thread_spec thread;
  sender_spec sender;
};

/// The spec step of the slack source (reads and checks `spec.slack.<event>`; an event holds its
/// endpoint and port alone, or its endpoint alone with `one_port`, `run --listen`).
dsl::kind_spec source_spec_step(bool one_port = false);

/// The spec step of the slack trigger (reads and checks `template.slack`).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::slack
