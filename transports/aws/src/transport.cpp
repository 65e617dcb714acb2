#include "ganglion/aws/transport.hpp"

namespace ganglion::aws {

core::command_options command_options() {
  core::command_option endpoint;
  endpoint.flag = "--aws-endpoint";
  endpoint.help = "URL of the AWS APIs a manifest cannot point elsewhere (awsLambda), instead of "
                  "AWS's regional endpoints: a private endpoint or a local stand-in";
  endpoint.commands = {"run", "test"};
  return {endpoint};
}

options options_from(const core::option_values& values) {
  options out;
  out.endpoint = values.value("--aws-endpoint");
  return out;
}

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts) {
  sources["sqs"] = make_sqs_source_factory(http->requests, opts);
  triggers["awsLambda"] = make_lambda_trigger_factory(http->requests, opts);
}

} // namespace ganglion::aws
