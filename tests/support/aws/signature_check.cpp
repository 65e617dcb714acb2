#include "aws/signature_check.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>

#include "s3/sigv4.hpp"

namespace ganglion::test::aws {

namespace {

/// How far a request's `x-amz-date` may be from the server's clock, as in AWS.
constexpr std::chrono::minutes max_skew{15};

std::string lower(std::string text) {
  for (auto& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

} // namespace

std::string signed_call::header(const std::string& name) const {
  for (const auto& [key, value] : headers)
    if (lower(key) == lower(name))
      return value;
  return {};
}

namespace {

std::optional<aws_error> check_keys(const signed_call& req, const std::string& service,
                                    const aws_server_options& options,
                                    std::vector<std::string>& signed_headers) {
  auto header = req.header("authorization");
  if (header.empty())
    return aws_error{403, "MissingAuthenticationToken", "Missing Authentication Token"};
  auto auth = s3::parse_authorization(header);
  if (!auth)
    return aws_error{400, "IncompleteSignature", "The request signature is malformed."};
  signed_headers = auth->signed_headers;
  if (auth->service != service)
    return aws_error{403, "SignatureDoesNotMatch",
                     "Credential should be scoped to correct service: '" + service + "'."};
  if (auth->access_key != options.access_key)
    return aws_error{403, "UnrecognizedClientException",
                     "The security token included in the request is invalid."};
  if (auth->region != options.region)
    return aws_error{403, "SignatureDoesNotMatch",
                     "Credential should be scoped to a valid region, not '" + auth->region
                       + "'."};
  const auto& target = req.target;
  auto mark = target.find('?');
  s3::sigv4_request signed_request;
  signed_request.method = req.method;
  signed_request.path = target.substr(0, mark);
  signed_request.query = mark == std::string::npos ? std::string{} : target.substr(mark + 1);
  for (const auto& [name, value] : req.headers)
    signed_request.headers[lower(name)] = value;
  signed_request.payload_hash = signed_request.headers.count("x-amz-content-sha256")
                                  ? signed_request.headers["x-amz-content-sha256"]
                                  : s3::sha256_hex(req.body);
  signed_request.amz_date = signed_request.headers["x-amz-date"];
  auto is_signed = [&](const std::string& name) {
    return std::find(auth->signed_headers.begin(), auth->signed_headers.end(), name)
        != auth->signed_headers.end();
  };
  for (const auto& required : {"host", "x-amz-date"})
    if (!is_signed(required))
      return aws_error{403, "SignatureDoesNotMatch",
                       std::string("The header ") + required + " must be signed."};
  if (!options.session_token.empty()) {
    auto token = signed_request.headers.find("x-amz-security-token");
    if (token == signed_request.headers.end() || !is_signed("x-amz-security-token")
        || !s3::constant_time_equal(token->second, options.session_token))
      return aws_error{403, "UnrecognizedClientException",
                       "The security token included in the request is invalid."};
  }
  auto when = s3::parse_amz_date(signed_request.amz_date);
  if (!when || signed_request.amz_date.substr(0, 8) != auth->date)
    return aws_error{400, "IncompleteSignature", "Date must be in ISO-8601 'basic format'."};
  auto skew = std::chrono::system_clock::now() - *when;
  if (skew > max_skew || skew < -max_skew)
    return aws_error{403, "InvalidSignatureException", "Signature expired."};
  auto expected = s3::expected_signature(signed_request, *auth, options.secret_key);
  if (!s3::constant_time_equal(expected, auth->signature))
    return aws_error{403, "InvalidSignatureException",
                     "The request signature we calculated does not match the signature you "
                     "provided. Check your AWS Secret Access Key and signing method."};
  return std::nullopt;
}

} // namespace

std::optional<aws_error> check_signature(const signed_call& req, const std::string& service,
                                         const aws_server_options& options,
                                         std::vector<std::string>& signed_headers) {
  auto refused = check_keys(req, service, options, signed_headers);
  if (!refused)
    return refused;
  for (const auto& [arn, role] : options.roles) {
    auto as_role = options;
    as_role.access_key = role.access_key;
    as_role.secret_key = role.secret_key;
    as_role.session_token = role.session_token;
    if (!check_keys(req, service, as_role, signed_headers))
      return std::nullopt;
  }
  return refused;
}

} // namespace ganglion::test::aws
