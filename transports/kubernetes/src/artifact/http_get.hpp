#pragma once

#include <string>
#include <vector>

#include "artifact/artifact.hpp"

// The one libcurl GET behind the url and s3 sources.

namespace ganglion::kubernetes::detail {

/// What one GET sends.
struct http_get {
  std::string url;
  /// Go's http.Client: up to 10 redirects (url); an S3 request follows none.
  bool follow_redirects = false;
  /// Checks the server's certificate and name (https).
  bool verify_tls = true;
  /// `CURLOPT_AWS_SIGV4` provider (`aws:amz:<region>:s3`); empty: the request is not signed.
  std::string aws_sigv4;
  /// The signing credentials (access key id, secret key) with `aws_sigv4`.
  std::string username;
  std::string password;
  /// Extra request headers, `Name: value`.
  std::vector<std::string> headers;
};

/// The status and body of the answer.
struct http_got {
  long status = 0;
  std::string body;
};

/// Sends `get` within options.timeout, any body over options.max_bytes refused (check_size at
/// `path`); a transport failure throws artifact_error `<at>: GET <url> failed: <why>`.
http_got perform_get(const http_get& get, const fetch_options& options, const std::string& path,
                     const std::string& at);

} // namespace ganglion::kubernetes::detail
