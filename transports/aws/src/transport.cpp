#include "ganglion/aws/transport.hpp"

namespace ganglion::aws {

core::command_options command_options() {
  core::command_option endpoint;
  endpoint.flag = "--aws-endpoint";
  endpoint.help = "URL of the AWS APIs a manifest cannot point elsewhere (awsLambda, STS for a "
                  "roleARN), instead of AWS's regional endpoints: a private endpoint or a local "
                  "stand-in";
  endpoint.commands = {"run", "test"};
  core::command_option cert_host;
  cert_host.flag = "--sns-allow-cert-host";
  cert_host.help = "host an SNS SigningCertURL may name beside sns.<region>.amazonaws.com (still "
                   "https): a private SNS endpoint; repeatable";
  cert_host.commands = {"run", "test"};
  cert_host.repeatable = true;
  return {endpoint, cert_host};
}

options options_from(const core::option_values& values) {
  options out;
  out.endpoint = values.value("--aws-endpoint");
  out.sns_cert_hosts = values.values("--sns-allow-cert-host");
  return out;
}

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts) {
  sources["sqs"] = make_sqs_source_factory(http->requests, opts);
  sources["sns"] = make_sns_source_factory(http, opts);
  triggers["awsLambda"] = make_lambda_trigger_factory(http->requests, opts);
}

} // namespace ganglion::aws
