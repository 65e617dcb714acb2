#pragma once

// Private: an SNS HTTP(S) delivery (a JSON document: SubscriptionConfirmation, Notification,
// UnsubscribeConfirmation) and its signature, as AWS documents them
// (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::aws {

/// The fields of an SNS delivery that are read or signed (absent: empty).
struct sns_message {
  std::string type;
  std::string message_id;
  std::string token;
  std::string topic_arn;
  std::string subject;
  std::string message;
  std::string subscribe_url;
  std::string timestamp;
  std::string signature_version;
  std::string signature;
  std::string signing_cert_url;
};

/// The delivery in `body`; nullopt with `error` set when it is not a JSON object with a string
/// `Type`.
std::optional<sns_message> parse_sns_message(std::string_view body, std::string& error);

/// The string SNS signs for `m`: `Key\nValue\n` for each field of its type, in AWS's order
/// (Notification: Message, MessageId, Subject, Timestamp, TopicArn, Type; the confirmations:
/// Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type), an empty field left out.
std::string sns_string_to_sign(const sns_message& m);

/// Why `url` may not serve a signing certificate (empty when it may): it must be https and its
/// host `sns.<region>.amazonaws.com` (or `.com.cn`), as Argo's pattern, or one of `allowed`
/// (`--sns-allow-cert-host`, for tests).
std::string sns_cert_url_problem(std::string_view url, const std::vector<std::string>& allowed);

/// Why `m`'s signature does not verify with the certificate `cert_pem` (empty when it does):
/// SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA, over sns_string_to_sign(m).
std::string sns_signature_problem(const sns_message& m, const std::string& cert_pem);

} // namespace ganglion::aws
