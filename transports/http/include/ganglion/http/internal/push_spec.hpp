#pragma once

// The spec step of a push source kind: Argo's WebhookContext at `<event>.webhook`, its rules
// and its claim (one endpoint on one port, across every push kind). Exposes yaml-cpp through
// dsl's kind headers: not installed.

#include <optional>
#include <string_view>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::http {

/// Reads Argo's WebhookContext at `event_node[field]` (defaults when absent).
webhook_spec read_webhook_context(const YAML::Node& event_node, std::string_view field = "webhook");

/// Argo's ValidateWebhookContext and ganglion's rules for the context at `<in.path>.<field>`
/// (an absent context is an error); with `one_port`, the rules of `--listen`.
void check_webhook_context(const webhook_spec& context, const dsl::spec_check_input& in,
                           std::string_view field, bool one_port);

/// What the event holds alone: its endpoint on its port, or on the --listen port with
/// `one_port`; reported at `field`.
std::optional<dsl::spec_claim> webhook_context_claim(const webhook_spec& context,
                                                     std::string_view field, bool one_port);

/// A source spec step for a push kind whose model holds its WebhookContext in `Model::*webhook`
/// (read by the kind's `read`, e.g. with read_webhook_context): the kind's own rules, then
/// check_webhook_context at `webhook`, and webhook_context_claim.
template <class Model>
dsl::kind_spec push_spec_step(Model (*read)(const dsl::spec_read_input&),
                              void (*check)(const Model&, const dsl::spec_check_input&),
                              webhook_spec Model::*webhook, bool one_port) {
  dsl::kind_spec out = dsl::make_kind_spec<Model>(read, check);
  out.check = [check, webhook, one_port](const std::any& model, const dsl::spec_check_input& in) {
    if (const auto* m = std::any_cast<Model>(&model)) {
      check(*m, in);
      check_webhook_context((*m).*webhook, in, "webhook", one_port);
    }
  };
  out.claim = [webhook, one_port](const std::any& model) -> std::optional<dsl::spec_claim> {
    const auto* m = std::any_cast<Model>(&model);
    return m ? webhook_context_claim((*m).*webhook, "webhook", one_port) : std::nullopt;
  };
  return out;
}

} // namespace ganglion::http
