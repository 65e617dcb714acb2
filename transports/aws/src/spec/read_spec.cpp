#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::aws::detail {

using namespace dsl::detail;

namespace {

void read_credentials_spec(const YAML::Node& node, credentials_spec& out) {
  out.access_key = read_key_selector(node, "accessKey");
  out.secret_key = read_key_selector(node, "secretKey");
  out.region = read_string(node, "region");
  out.role_arn = read_string(node, "roleARN");
}

} // namespace

sqs_spec read_sqs(const dsl::spec_read_input& in) {
  sqs_spec out;
  read_credentials_spec(in.node, out);
  out.queue = read_string(in.node, "queue");
  out.wait_time_seconds = read_int(in.node, "waitTimeSeconds");
  out.json_body = read_bool(in.node, "jsonBody");
  out.queue_account_id = read_string(in.node, "queueAccountId");
  out.metadata = read_string_map(in.node, "metadata");
  out.dlq = read_bool(in.node, "dlq");
  out.endpoint = read_string(in.node, "endpoint");
  out.session_token = read_key_selector(in.node, "sessionToken");
  return out;
}

sns_spec read_sns(const dsl::spec_read_input& in) {
  sns_spec out;
  read_credentials_spec(in.node, out);
  out.webhook = http::read_webhook_context(in.node);
  out.topic_arn = read_string(in.node, "topicArn");
  out.metadata = read_string_map(in.node, "metadata");
  out.validate_signature = read_bool(in.node, "validateSignature");
  out.endpoint = read_string(in.node, "endpoint");
  return out;
}

lambda_spec read_lambda(const dsl::spec_read_input& in) {
  lambda_spec out;
  read_credentials_spec(in.node, out);
  out.function_name = read_string(in.node, "functionName");
  out.invocation_type = read_string(in.node, "invocationType");
  return out;
}

} // namespace ganglion::aws::detail
