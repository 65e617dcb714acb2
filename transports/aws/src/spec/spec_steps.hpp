#pragma once

#include "ganglion/aws/spec.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

// The aws kinds' readers (YAML → model) and rules (Argo's awssqs validate.go and the sensor's
// validateAWSLambdaTrigger, plus ganglion's).

namespace ganglion::aws::detail {

/// Reads `spec.sqs.<event>`.
sqs_spec read_sqs(const dsl::spec_read_input& in);

/// Reads `spec.sns.<event>`.
sns_spec read_sns(const dsl::spec_read_input& in);

/// Reads `template.awsLambda`.
lambda_spec read_lambda(const dsl::spec_read_input& in);

/// Argo's rules for `spec.sqs.<event>`, plus ganglion's.
void check_sqs(const sqs_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for `spec.sns.<event>` (its WebhookContext is checked by the push spec step),
/// plus ganglion's.
void check_sns(const sns_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for `template.awsLambda`, plus ganglion's.
void check_lambda(const lambda_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::aws::detail
