#include "spec/spec_steps.hpp"
#include "ganglion/http/internal/push_spec.hpp"

namespace ganglion::aws {

dsl::kind_spec sqs_spec_step() {
  return dsl::make_kind_spec<sqs_spec>(&detail::read_sqs, &detail::check_sqs);
}

dsl::kind_spec sns_spec_step(bool one_port) {
  return http::push_spec_step<sns_spec>(&detail::read_sns, &detail::check_sns, &sns_spec::webhook,
                                        one_port);
}

dsl::kind_spec lambda_spec_step() {
  return dsl::make_kind_spec<lambda_spec>(&detail::read_lambda, &detail::check_lambda);
}

} // namespace ganglion::aws
