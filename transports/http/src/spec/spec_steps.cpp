#include "spec/spec_steps.hpp"

namespace ganglion::http {

dsl::kind_spec webhook_spec_step() {
  return dsl::make_kind_spec<webhook_spec>(&detail::read_webhook, &detail::check_webhook,
                                           &detail::webhook_claim);
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

} // namespace ganglion::http
