#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::stripe::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.webhook = http::read_webhook_context(node);
  out.create_webhook = read_bool(node, "createWebhook");
  out.api_key = read_key_selector(node, "apiKey");
  if (!is_absent(child(node, "eventFilter")))
    out.event_filter = read_string_list(node, "eventFilter");
  out.metadata = read_string_map(node, "metadata");
  return out;
}

} // namespace ganglion::stripe::detail
