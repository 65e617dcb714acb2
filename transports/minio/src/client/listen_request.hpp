#pragma once

#include <string>
#include <vector>

namespace ganglion::minio::detail {

/// Why minio-go refuses `endpoint` (it takes `host[:port]`: no scheme, path, query or user);
/// empty when it takes it.
std::string endpoint_problem(const std::string& endpoint);

/// Why minio-go's CheckValidBucketName (3–63 letters, digits, `.-_:`, starting and ending with a
/// letter or digit, no `..`, `.-`, `-.`, not an IP address) refuses `name`; empty when it takes
/// it.
std::string bucket_name_problem(const std::string& name);

/// Go's url.QueryEscape: unreserved characters kept, space as `+`, every other byte `%XX`.
std::string query_escape(const std::string& text);

/// What one ListenBucketNotification request names.
struct listen_target {
  std::string endpoint;
  bool insecure = false;
  std::string bucket;
  std::vector<std::string> events;
  std::string prefix;
  std::string suffix;
};

/// minio-go's request URL: `http(s)://<endpoint>/<bucket>?` and url.Values.Encode of
/// `events` (each, in order), `ping=10`, `prefix`, `suffix` (keys sorted).
std::string listen_url(const listen_target& target);

} // namespace ganglion::minio::detail
