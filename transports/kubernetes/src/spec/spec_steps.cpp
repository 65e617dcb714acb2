#include "spec/spec_steps.hpp"

namespace ganglion::kubernetes {

dsl::kind_spec k8s_trigger_spec_step() {
  return dsl::make_kind_spec<k8s_trigger_spec>(&detail::read_k8s_trigger,
                                               &detail::check_k8s_trigger);
}

dsl::kind_spec workflow_trigger_spec_step() {
  return dsl::make_kind_spec<workflow_trigger_spec>(&detail::read_workflow_trigger,
                                                    &detail::check_workflow_trigger);
}

} // namespace ganglion::kubernetes
