#pragma once

// A stand-in for Amazon SNS on 127.0.0.1, for the sns source's tests: SNS's Query API
// (Subscribe, ConfirmSubscription, Unsubscribe; SigV4 verified) and its HTTP deliveries
// (SubscriptionConfirmation, Notification, UnsubscribeConfirmation), signed as SNS signs them
// with a test key whose certificate it serves over HTTPS. Not SNS: see README.md.

#include <memory>
#include <string>
#include <vector>

#include "aws/aws_server.hpp"
#include "http_sink.hpp"

namespace ganglion::test::aws {

/// One subscription the stand-in holds.
struct sns_subscription {
  std::string arn;       ///< `<topic>:<id>`
  std::string topic_arn;
  std::string protocol;  ///< `http` or `https`
  std::string endpoint;  ///< the URL deliveries go to
  std::string token;     ///< the confirmation's Token
  bool confirmed = false;
  long confirmation_status = 0; ///< what the endpoint answered the SubscriptionConfirmation
};

/// Serves until destroyed. Subscribe answers `pending confirmation` and then posts a signed
/// SubscriptionConfirmation to the endpoint (from a thread of its own); a Subscribe of an
/// endpoint already confirmed answers its ARN and posts nothing, as SNS does.
class sns_api {
public:
  /// Keys and region as `options` (aws_server_options) says; `signature_version` 1 or 2 for the
  /// deliveries.
  explicit sns_api(aws_server_options options = {}, int signature_version = 1);
  ~sns_api();
  sns_api(const sns_api&) = delete;
  sns_api& operator=(const sns_api&) = delete;

  /// `http://127.0.0.1:<port>`, an `endpoint`.
  std::string endpoint() const;
  /// `https://127.0.0.1:<port>/SimpleNotificationService-test.pem`, the SigningCertURL.
  std::string cert_url() const;
  /// The certificate (PEM) that signs and serves cert_url(): the CA a client trusts for it.
  std::string certificate() const;
  /// The private key (PEM) of certificate(), to sign deliveries of a test's own.
  std::string key() const;
  /// How often cert_url() was fetched.
  int cert_fetches() const;

  /// `arn:aws:sns:<region>:<account>:<name>`; topics need not be created.
  std::string topic_arn(const std::string& name) const;
  /// Every API request answered so far, in order (service `sns`).
  std::vector<aws_request> requests() const;
  /// The subscriptions held (an unsubscribed one is gone).
  std::vector<sns_subscription> subscriptions() const;

  /// A signed Notification of `topic` (Subject left out when empty), as SNS posts it.
  std::string notification(const std::string& topic, const std::string& message,
                           const std::string& subject = {}) const;
  /// Posts a Notification to every confirmed subscription of `topic` and returns what each
  /// endpoint answered.
  std::vector<long> publish(const std::string& topic, const std::string& message,
                            const std::string& subject = {});
  /// Posts `body` to `url` with SNS's headers for a message of type `type`; the answer's status.
  long deliver(const std::string& url, const std::string& type, const std::string& body) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test::aws
