#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::stripe::detail {

using namespace dsl::detail;

void check_event(const event_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  auto key = child_path(at, "apiKey");
  if (s.create_webhook && !s.api_key)
    cx.error(key, "api key K8s secret selector not provided");
  check_secret(s.api_key, key, cx);
  if (s.create_webhook && s.webhook.url.empty()) // *ganglion*: Argo registers "/<endpoint>"
    cx.error(child_path(child_path(at, "webhook"), "url"),
             "webhook.url is required with createWebhook: it is the URL Stripe posts to");
  if (s.event_filter && s.event_filter->empty())
    cx.warning(child_path(at, "eventFilter"),
               "an empty list passes no event (Argo's filter); leave it out to pass every type");
  if (!s.create_webhook && s.api_key)
    cx.warning(key, "ignored: the API key is used only with createWebhook");
}

} // namespace ganglion::stripe::detail
