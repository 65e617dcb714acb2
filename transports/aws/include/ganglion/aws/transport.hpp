#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::aws {

/// Settings of the aws transport (the same for every source and trigger).
struct options {
  /// The endpoint (`http(s)://host[:port]`) of every AWS API a manifest cannot point elsewhere
  /// (Lambda and STS, which a roleARN calls, have no `endpoint` field); empty: AWS's regional
  /// endpoints. `--aws-endpoint`.
  std::string endpoint;
  /// How long one API call may take beyond a long poll's wait.
  std::chrono::milliseconds request_timeout{30000};
  /// First wait before an SQS call is made again after it failed (or before a message the bus
  /// refused is offered again); doubles up to `max_retry_delay`.
  std::chrono::milliseconds min_retry_delay{1000};
  /// Longest wait between two attempts.
  std::chrono::milliseconds max_retry_delay{30000};
  /// How long the queue may stay unreachable before the source fails (the engine restarts it
  /// with backoff, phase Error with the reason).
  std::chrono::milliseconds lost_after{60000};
  /// Hosts an SNS SigningCertURL may name beside `sns.<region>.amazonaws.com` (still https):
  /// `--sns-allow-cert-host`, for a private SNS or a test stand-in.
  std::vector<std::string> sns_cert_hosts;
  /// CAs (PEM) trusted for the signing certificate's host instead of the system's; tests only.
  std::string sns_cert_ca_pem;
};

/// The `sqs` source: resolves the queue URL (GetQueueUrl, with `queueAccountId`), long-polls
/// ReceiveMessage (10 messages, `waitTimeSeconds`, visibility 120 s, attribute `SentTimestamp`
/// and every message attribute, as Argo) and publishes each message as a CloudEvent of type
/// `sqs` with Argo's data `{"messageId":…,"messageAttributes":…,"body":…,"metadata":…}`. A
/// message is deleted only once the bus accepted (or the filter dropped) it; one the bus refuses
/// is offered again after a backoff. Requests are signed with SigV4 on `requests`. Throws
/// core::source_error when the queue URL cannot be had.
core::source_factory make_sqs_source_factory(std::shared_ptr<http::client> requests,
                                             options opts = {});

/// The sqs source's check step: region, queue, the filter. Reads no secret.
std::vector<std::string> check_sqs_source(const core::source_context& ctx);

/// The `sns` source: subscribes `webhook.url` to the topic (Subscribe, retried; Unsubscribe at
/// stop, as Argo), serves SNS's deliveries on the WebhookContext, confirms a
/// SubscriptionConfirmation with its Token (ConfirmSubscription) and publishes each Notification
/// as a CloudEvent of type `sns` with Argo's data `{"header":…,"body":…,"metadata":…}`. With
/// `validateSignature` every delivery's signature is verified against its signing certificate
/// (fetched once per URL, from an SNS host or `sns_cert_hosts` only) and a bad one refused (401).
core::source_factory make_sns_source_factory(std::shared_ptr<http::runtime> rt,
                                             options opts = {});

/// The sns source's check step: topicArn, region. Reads no secret.
std::vector<std::string> check_sns_source(const core::source_context& ctx);

/// The `awsLambda` trigger: Invoke (`POST /2015-03-31/functions/<name>/invocations`) with the
/// payload `payload[]` builds and `X-Amz-Invocation-Type`, signed with SigV4 on `requests`. A
/// status outside `policy.status.allow` (when set), an AWS error or a function error
/// (`X-Amz-Function-Error`) is a failure.
core::trigger_factory make_lambda_trigger_factory(std::shared_ptr<http::client> requests,
                                                  options opts = {});

/// The awsLambda trigger's check step: functionName, region, payload.
std::vector<std::string> check_lambda_trigger(const core::trigger_context& ctx);

/// The command-line options of the aws kinds: `--aws-endpoint URL`, `--sns-allow-cert-host HOST`.
core::command_options command_options();

/// `options` with what the command line gave those options.
options options_from(const core::option_values& values);

/// Registers the `sqs` and `sns` sources and the `awsLambda` trigger on `http`'s client (and
/// server, for sns).
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts = {});

} // namespace ganglion::aws
