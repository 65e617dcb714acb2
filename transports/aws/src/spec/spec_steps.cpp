#include "spec/spec_steps.hpp"

namespace ganglion::aws {

dsl::kind_spec sqs_spec_step() {
  return dsl::make_kind_spec<sqs_spec>(&detail::read_sqs, &detail::check_sqs);
}

dsl::kind_spec lambda_spec_step() {
  return dsl::make_kind_spec<lambda_spec>(&detail::read_lambda, &detail::check_lambda);
}

} // namespace ganglion::aws
