#pragma once

#include <optional>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/http/spec.hpp"

// The http kind's readers (YAML → model) and rules (Argo's webhook and http trigger
// validation plus ganglion's).

namespace ganglion::http::detail {

/// Reads `spec.webhook.<event>`.
webhook_spec read_webhook(const dsl::spec_read_input& in);

/// Reads `template.http`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// Reads a WebhookContext from its own node.
webhook_spec read_webhook_node(const YAML::Node& node);

/// Argo's rules for `spec.webhook.<event>`.
void check_webhook(const webhook_spec& spec, const dsl::spec_check_input& in);

/// The rules of a WebhookContext at `at` (`method` required by the webhook kind only).
void check_webhook_at(const webhook_spec& spec, const std::string& at,
                      const dsl::detail::load_context& cx, bool require_method);

/// What a webhook event holds alone: its port and endpoint (none while either is invalid).
std::optional<dsl::spec_claim> webhook_claim(const webhook_spec& spec);

/// With every webhook on the --listen port: a warning that TLS settings are not used.
void check_one_port(const webhook_spec& spec, const dsl::spec_check_input& in);

/// check_one_port for the WebhookContext at `at`.
void check_one_port_at(const webhook_spec& spec, const std::string& at,
                       const dsl::detail::load_context& cx);

/// What a webhook event holds alone when every webhook shares the --listen port: its endpoint.
std::optional<dsl::spec_claim> one_port_claim(const webhook_spec& spec);

/// Argo's validateHTTPTrigger for `template.http`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::http::detail
