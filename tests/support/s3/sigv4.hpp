#pragma once

// AWS Signature Version 4 as S3 checks it (header form): the canonical request, the string to
// sign and the HMAC-SHA256 key chain, written from AWS's documentation with OpenSSL.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ganglion::test::s3 {

/// The parts of `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`.
struct sigv4_authorization {
  std::string access_key;
  std::string date;                        ///< the scope's `YYYYMMDD`
  std::string region;                      ///< the scope's region
  std::string service;                     ///< the scope's service (`s3`)
  std::vector<std::string> signed_headers; ///< lower case, as listed
  std::string signature;                   ///< lower-case hex
};

/// The Authorization header's parts; nullopt when it is not a well-formed SigV4 header.
std::optional<sigv4_authorization> parse_authorization(const std::string& header);

/// What a signature covers.
struct sigv4_request {
  std::string method;
  /// The path as sent (already URI-encoded; S3 does not normalise it).
  std::string path;
  /// The query string as sent, without `?`.
  std::string query;
  /// Every header, names in lower case.
  std::map<std::string, std::string> headers;
  /// `x-amz-content-sha256`.
  std::string payload_hash;
  /// `x-amz-date` (`YYYYMMDDTHHMMSSZ`).
  std::string amz_date;
};

/// The canonical request of `request` over `signed_headers`.
std::string canonical_request(const sigv4_request& request,
                              const std::vector<std::string>& signed_headers);

/// The lower-case hex signature `secret_key` gives `request` under `auth`'s scope.
std::string expected_signature(const sigv4_request& request, const sigv4_authorization& auth,
                               const std::string& secret_key);

/// The lower-case hex SHA-256 of `text` (a payload hash, when no `x-amz-content-sha256` is sent).
std::string sha256_hex(const std::string& text);

/// `%XX` escapes of `text` decoded (a path as sent).
std::string percent_decode(const std::string& text);

/// `x-amz-date`'s `YYYYMMDDTHHMMSSZ` as a time point; nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> parse_amz_date(const std::string& text);

/// Compares two strings in time that depends only on their lengths.
bool constant_time_equal(const std::string& a, const std::string& b);

} // namespace ganglion::test::s3
