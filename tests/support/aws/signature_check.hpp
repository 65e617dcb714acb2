#pragma once

// The stand-in AWS endpoint's check of a request's AWS Signature V4 (s3/sigv4.hpp does the
// arithmetic): scope, key, region, signed headers, date, session token, signature.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aws/aws_server.hpp"

namespace ganglion::test::aws {

/// An AWS error: status, code and message.
struct aws_error {
  unsigned status;
  std::string code;
  std::string message;
};

/// What a signature covers of one request, as received.
struct signed_call {
  std::string method;
  std::string target; ///< path and query, as sent
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  /// The first value of header `name` (case-insensitive), "" when absent.
  std::string header(const std::string& name) const;
};

/// Why `call`'s signature does not let it in for `service` under `options` (AWS's error);
/// nullopt when it does, with the options' keys or those of one of its roles (and that role's
/// session token). `signed_headers` gets the header names it signed.
std::optional<aws_error> check_signature(const signed_call& call, const std::string& service,
                                         const aws_server_options& options,
                                         std::vector<std::string>& signed_headers);

} // namespace ganglion::test::aws
