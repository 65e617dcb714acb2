#include <nlohmann/json.hpp>

#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::slack::detail {

using namespace dsl::detail;

namespace {

/// Whether a parameter may rewrite the action before it runs (template-level `slack.…` dests or
/// `slack.parameters[]`): the fields are then only known per firing.
bool parameterized(const dsl::spec_check_input& in) {
  if (in.action && !in.action->parameters.empty())
    return true;
  if (!in.scope)
    return false;
  for (const auto& dest : in.scope->template_dests)
    if (dest.rfind("slack", 0) == 0)
      return true;
  return false;
}

/// A JSON-array field (`attachments`, `blocks`): Argo unmarshals it into a list and fails every
/// post when it is not one.
void check_json_array(const std::string& text, const std::string& path, std::string_view what,
                      const load_context& cx) {
  if (text.empty())
    return;
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_array())
    cx.error(path, std::string{what} + " must be a JSON array (as text), as Slack's API takes it");
}

} // namespace

void check_event(const event_spec& spec, const dsl::spec_check_input& in) {
  if (!spec.token)
    in.cx.error(child_path(in.path, "token"), "token not provided");
  else
    check_secret(spec.token, child_path(in.path, "token"), in.cx);
  if (!spec.signing_secret)
    in.cx.error(child_path(in.path, "signingSecret"), "signingSecret not provided");
  else
    check_secret(spec.signing_secret, child_path(in.path, "signingSecret"), in.cx);
}

void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  if (!spec.slack_token)
    cx.error(child_path(path, "slackToken"), "slackToken is required");
  else
    check_secret(spec.slack_token, child_path(path, "slackToken"), cx);
  if (in.scope && in.action)
    validate_parameters(in.action->parameters, child_path(path, "parameters"), false, *in.scope, cx,
                        "slack.parameters");
  if (parameterized(in))
    return;
  if (spec.channel.empty() || spec.channel == "#")
    cx.error(child_path(path, "channel"),
             "channel is required: without one every post fails (no slack channel provided)");
  if (spec.message.empty() && spec.attachments.empty() && spec.blocks.empty())
    cx.error(child_path(path, "message"),
             "nothing to post: at least one of message, attachments and blocks is required");
  check_json_array(spec.attachments, child_path(path, "attachments"), "attachments", cx);
  check_json_array(spec.blocks, child_path(path, "blocks"), "blocks", cx);
}

} // namespace ganglion::slack::detail
