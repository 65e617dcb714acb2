#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/slack/spec.hpp"

// The slack kinds' readers (YAML → model) and rules (Argo's validate.go plus ganglion's).

namespace ganglion::slack::detail {

/// Reads `spec.slack.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Argo's slack validate.go: token and signingSecret given (the webhook context's rules are
/// the push base's).
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Reads `template.slack`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Argo's validateSlackTrigger (slackToken given, parameters) plus ganglion's: a channel, and
/// something to post, unless a parameter may set them; attachments and blocks JSON arrays.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::slack::detail
