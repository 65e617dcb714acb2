#include "spec/spec_steps.hpp"

namespace ganglion::grpc {

dsl::kind_spec source_spec_step() {
  return dsl::make_kind_spec<generic_spec>(&detail::read_generic, &detail::check_generic);
}

dsl::kind_spec trigger_spec_step() {
  return dsl::make_kind_spec<custom_spec>(&detail::read_custom, &detail::check_custom);
}

} // namespace ganglion::grpc
