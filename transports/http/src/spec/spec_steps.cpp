#include "spec/spec_steps.hpp"

namespace ganglion::http {

dsl::kind_spec webhook_spec_step(bool one_port) {
  auto step = dsl::make_kind_spec<webhook_spec>(&detail::read_webhook, &detail::check_webhook,
                                                &detail::webhook_claim);
  if (!one_port)
    return step;
  step.check = [check = step.check](const std::any& model, const dsl::spec_check_input& in) {
    check(model, in);
    if (const auto* w = std::any_cast<webhook_spec>(&model))
      detail::check_one_port(*w, in);
  };
  step.claim = [](const std::any& model) -> std::optional<dsl::spec_claim> {
    const auto* w = std::any_cast<webhook_spec>(&model);
    return w ? detail::one_port_claim(*w) : std::nullopt;
  };
  return step;
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

} // namespace ganglion::http
