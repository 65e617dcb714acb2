#pragma once

// The aws kinds' models: `spec.sqs.<event>` and `spec.sns.<event>` of an EventSource and
// `template.awsLambda` of a Sensor trigger, as their spec steps read them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::aws {

/// What every aws kind signs its requests with (Argo's CreateAWSSessionWithCredsInVolume).
struct credentials_spec {
  std::optional<dsl::secret_key_selector> access_key; ///< `accessKey`
  std::optional<dsl::secret_key_selector> secret_key; ///< `secretKey`
  std::string region;
  std::string role_arn; ///< `roleARN`: assumed with the keys (STS AssumeRole)
};

/// `spec.sqs.<event>`: long-polls queue `queue` and deletes each message once the bus took it.
struct sqs_spec : credentials_spec {
  std::string queue;
  std::int64_t wait_time_seconds = 0;   ///< `waitTimeSeconds`; 0: Argo's 3
  bool json_body = false;               ///< `jsonBody`
  std::string queue_account_id;         ///< `queueAccountId`: GetQueueUrl's owner account
  std::map<std::string, std::string> metadata;
  bool dlq = false;                     ///< `dlq`: a message that is not JSON stays for the DLQ
  std::string endpoint;                 ///< an SQS endpoint instead of AWS's
  std::optional<dsl::secret_key_selector> session_token; ///< `sessionToken`

  /// ReceiveMessage's WaitTimeSeconds (Argo: 3 when 0).
  std::int64_t wait_seconds() const { return wait_time_seconds == 0 ? 3 : wait_time_seconds; }
};

/// `spec.sns.<event>` (Argo's SNSEventSource): subscribes `webhook.url` to topic `topicArn` and
/// publishes the notifications SNS posts there.
struct sns_spec : credentials_spec {
  http::webhook_spec webhook; ///< Argo's WebhookContext
  std::string topic_arn;      ///< `topicArn`
  std::map<std::string, std::string> metadata;
  bool validate_signature = false; ///< `validateSignature`
  std::string endpoint;            ///< an SNS endpoint instead of AWS's
};

/// `template.awsLambda`: invokes function `functionName` with the payload `payload[]` builds.
struct lambda_spec : credentials_spec {
  std::string function_name;  ///< `functionName`
  std::string invocation_type; ///< `invocationType`; empty: RequestResponse
};

/// The spec step of the `sqs` source (reads and checks `spec.sqs.<event>` into sqs_spec).
dsl::kind_spec sqs_spec_step();

/// The spec step of the `sns` source (reads and checks `spec.sns.<event>` into sns_spec; an event
/// holds its endpoint and port alone, or its endpoint alone with `one_port`, `run --listen`).
dsl::kind_spec sns_spec_step(bool one_port = false);

/// The spec step of the `awsLambda` trigger (reads and checks `template.awsLambda` into
/// lambda_spec).
dsl::kind_spec lambda_spec_step();

} // namespace ganglion::aws
