#include "ganglion/http/internal/push_spec.hpp"

#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::http {

webhook_spec read_webhook_context(const YAML::Node& event_node, std::string_view field) {
  return detail::read_webhook_node(dsl::detail::child(event_node, field));
}

void check_webhook_context(const webhook_spec& context, const dsl::spec_check_input& in,
                           std::string_view field, bool one_port) {
  auto at = dsl::detail::child_path(in.path, field);
  detail::check_webhook_at(context, at, in.cx, false);
  if (one_port)
    detail::check_one_port_at(context, at, in.cx);
}

std::optional<dsl::spec_claim> webhook_context_claim(const webhook_spec& context,
                                                     std::string_view field, bool one_port) {
  auto claim = one_port ? detail::one_port_claim(context) : detail::webhook_claim(context);
  if (claim)
    claim->field = std::string{field};
  return claim;
}

} // namespace ganglion::http
