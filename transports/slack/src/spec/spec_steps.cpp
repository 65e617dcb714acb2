#include "spec/spec_steps.hpp"

namespace ganglion::slack {

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<trigger_spec>(&detail::read_trigger, &detail::check_trigger);
}

} // namespace ganglion::slack
