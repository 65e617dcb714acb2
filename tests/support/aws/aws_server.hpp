#pragma once

// A stand-in for AWS's SQS, Lambda and STS APIs on 127.0.0.1, for the aws kinds' tests: SQS's
// JSON protocol (GetQueueUrl, ReceiveMessage with long polling and visibility, DeleteMessage),
// Lambda's Invoke and STS's AssumeRole, every request's AWS Signature V4 verified
// (s3/sigv4.hpp). Not AWS: see README.md for what it emulates and what not.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ganglion::test::aws {

/// A role AssumeRole may assume, and the temporary keys it hands out for it.
struct assumable_role {
  std::string access_key = "ASIAGANGLIONROLE";
  std::string secret_key = "ganglion-role-secret-key";
  std::string session_token = "ganglion-role-session-token";
  std::chrono::seconds lifetime{900}; ///< from the AssumeRole to the Expiration it answers
};

/// Who may call, and where the server says it is.
struct aws_server_options {
  std::string access_key = "AKIAGANGLIONTEST";
  std::string secret_key = "ganglion-test-secret-key";
  /// When set, every request must carry it as a signed `X-Amz-Security-Token`.
  std::string session_token;
  /// The region a signature's scope must name.
  std::string region = "us-east-1";
  /// The account that owns the queues created without one.
  std::string account_id = "000000000000";
  /// STS's AssumeRole (signed with the keys above) hands these out by role ARN; a request signed
  /// with a role's keys and its session token is let in too.
  std::map<std::string, assumable_role> roles;
};

/// One request the server answered.
struct aws_request {
  std::string service;    ///< `sqs`, `lambda`, or empty when it named neither
  std::string action;     ///< `ReceiveMessage`, `Invoke` …
  std::string body;       ///< the request body
  std::string error_code; ///< the error it answered, empty for a success
  std::vector<std::string> signed_headers;
};

/// One SQS message attribute as SQS's JSON protocol carries it.
struct message_attribute {
  std::string data_type = "String";
  std::string string_value;
  std::string binary_value; ///< raw bytes (sent base64); used when data_type is `Binary`
};

/// What a Lambda function answers (RequestResponse).
struct lambda_function {
  std::string result = "null";  ///< the body of a synchronous invocation
  std::string function_error;   ///< `X-Amz-Function-Error` when set (`Unhandled`)
};

/// One Invoke the server accepted.
struct lambda_invocation {
  std::string function;
  std::string invocation_type; ///< the header as sent (empty when absent)
  std::string payload;
};

/// Serves until destroyed, on its own thread; connections are served concurrently.
class aws_server {
public:
  /// Starts listening on a free port.
  explicit aws_server(aws_server_options options = {});
  ~aws_server();
  aws_server(const aws_server&) = delete;
  aws_server& operator=(const aws_server&) = delete;

  /// `http://127.0.0.1:<port>`, what an `endpoint` names.
  std::string endpoint() const;
  const aws_server_options& options() const noexcept;
  /// Every request answered so far, in order.
  std::vector<aws_request> requests() const;

  /// Creates queue `name` of `owner` (options().account_id when empty).
  void create_queue(const std::string& name, const std::string& owner = {});
  /// Sends a message to queue `name`; returns its MessageId.
  std::string send_message(const std::string& queue, const std::string& body,
                           const std::vector<std::pair<std::string, message_attribute>>&
                             attributes = {});
  /// The IDs of the messages of `queue` deleted so far, in order.
  std::vector<std::string> deleted(const std::string& queue) const;
  /// Messages of `queue` not deleted (visible or in flight).
  std::size_t depth(const std::string& queue) const;
  /// How often message `id` of `queue` was received.
  int receive_count(const std::string& queue, const std::string& id) const;
  /// Makes the messages in flight of `queue` visible again (their visibility timeout passed).
  void expire_visibility(const std::string& queue);

  /// Creates (or replaces) Lambda function `name`.
  void put_function(const std::string& name, lambda_function function = {});
  /// Every Invoke accepted so far, in order.
  std::vector<lambda_invocation> invocations() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test::aws
