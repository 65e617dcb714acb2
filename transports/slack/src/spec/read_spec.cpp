#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::slack::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.signing_secret = read_key_selector(node, "signingSecret");
  out.token = read_key_selector(node, "token");
  out.webhook = http::read_webhook_context(node);
  out.metadata = read_string_map(node, "metadata");
  return out;
}

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.slack_token = read_key_selector(node, "slackToken");
  out.channel = read_string(node, "channel");
  out.message = read_string(node, "message");
  out.attachments = read_string(node, "attachments");
  out.blocks = read_string(node, "blocks");
  if (auto thread = child(node, "thread"); thread.IsMap()) {
    out.thread.message_aggregation_key = read_string(thread, "messageAggregationKey");
    out.thread.broadcast_message_to_channel = read_bool(thread, "broadcastMessageToChannel");
  }
  if (auto sender = child(node, "sender"); sender.IsMap()) {
    out.sender.username = read_string(sender, "username");
    out.sender.icon = read_string(sender, "icon");
  }
  return out;
}

} // namespace ganglion::slack::detail
