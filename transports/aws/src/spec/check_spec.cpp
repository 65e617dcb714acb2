#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::aws::detail {

using namespace dsl::detail;

namespace {

/// The secrets, and the key pair complete (Argo fails at start when one half is missing).
void check_credentials(const credentials_spec& s, const std::string& at, const load_context& cx) {
  check_secret(s.access_key, child_path(at, "accessKey"), cx);
  check_secret(s.secret_key, child_path(at, "secretKey"), cx);
  if (s.access_key && !s.secret_key)
    cx.error(child_path(at, "secretKey"), "secretKey is required with accessKey");
  if (s.secret_key && !s.access_key)
    cx.error(child_path(at, "accessKey"), "accessKey is required with secretKey");
}

} // namespace

void check_sqs(const sqs_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  require(s.region, child_path(at, "region"), "region", cx);
  require(s.queue, child_path(at, "queue"), "queue", cx);
  check_credentials(s, at, cx);
  check_secret(s.session_token, child_path(at, "sessionToken"), cx);
  // *ganglion*: SQS refuses these values (ReceiveMessage: 0 to 20 seconds).
  if (s.wait_time_seconds < 0 || s.wait_time_seconds > 20)
    cx.error(child_path(at, "waitTimeSeconds"),
             "waitTimeSeconds must be between 0 and 20 (0 or absent: 3), got "
               + std::to_string(s.wait_time_seconds));
  if (s.session_token && !s.access_key)
    cx.warning(child_path(at, "sessionToken"),
               "ignored: the session token is read only with accessKey and secretKey, as Argo "
               "does");
}

void check_sns(const sns_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (s.topic_arn.empty())
    cx.error(child_path(at, "topicArn"), "must specify topic arn");
  if (s.region.empty())
    cx.error(child_path(at, "region"), "must specify region");
  check_credentials(s, at, cx);
  if (s.webhook.url.empty()) // *ganglion*: Argo subscribes "/<endpoint>", which SNS refuses
    cx.error(child_path(child_path(at, "webhook"), "url"),
             "webhook.url is required: it is the URL SNS posts to");
}

void check_lambda(const lambda_spec& s, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  const auto& scope = *in.scope;
  require(s.function_name, child_path(at, "functionName"), "functionName", cx);
  require(s.region, child_path(at, "region"), "region", cx);
  check_credentials(s, at, cx);
  const auto& type = s.invocation_type;
  if (!type.empty() && type != "RequestResponse" && type != "Event" && type != "DryRun")
    cx.error(child_path(at, "invocationType"), // *ganglion*: Lambda refuses any other value
             "invocationType must be RequestResponse, Event or DryRun, got \"" + type + "\"");
  validate_parameters(in.action->parameters, child_path(at, "parameters"), false, scope, cx,
                      "awsLambda.parameters");
  require_payload(in.action->payload, at, "awsLambda", scope, cx);
}

} // namespace ganglion::aws::detail
