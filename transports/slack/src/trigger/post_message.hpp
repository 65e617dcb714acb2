#pragma once

// One chat.postMessage as Argo's slack trigger (notifications-engine on slack-go) sends it.

#include <map>
#include <string>
#include <string_view>

#include "ganglion/slack/spec.hpp"

namespace ganglion::slack::detail {

/// The template's fields after the core parameter step (`resource_json`, the `slack` object):
/// channel, message, attachments, blocks, thread and sender; the token stays the one read at
/// start. Throws std::runtime_error when it is not a JSON object.
trigger_spec fields_from_json(std::string_view resource_json, const trigger_spec& fallback);

/// The channel Argo posts to: `channel` without a leading `#`. Throws std::runtime_error
/// (`no slack channel provided`) when empty.
std::string recipient_of(const trigger_spec& fields);

/// The form of chat.postMessage (before `token`): `channel`, `text`, `username`, `icon_emoji`
/// (`:name:`) or `icon_url` (an http(s) URL; another icon is left out, as Argo does after a
/// warning), `attachments` and `blocks` (compacted, `[]` when not given, as slack-go sends
/// them), `thread_ts` when the message joins a thread, `reply_broadcast=true` when
/// thread.broadcastMessageToChannel. Throws std::runtime_error as Argo fails: nothing to post,
/// attachments or blocks that are not a JSON array.
std::map<std::string, std::string> post_message_form(const trigger_spec& fields,
                                                     const std::string& recipient,
                                                     const std::string& thread_ts);

/// Whether `icon` is one slack-go sends as `icon_url` (Go's url.ParseRequestURI accepts it,
/// scheme http or https, a host).
bool is_icon_url(std::string_view icon);

} // namespace ganglion::slack::detail
