#pragma once

// A real S3 endpoint on 127.0.0.1 for the s3 trigger source's and the minio source's tests:
// GetObject and HeadObject, path style, from buckets held in memory, and MinIO's
// ListenBucketNotification stream, every request's AWS Signature V4 verified. See README.md for
// what it emulates and what not.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ganglion::test::s3 {

/// Who may read, and where the server says it is.
struct s3_server_options {
  std::string access_key = "AKIAGANGLIONTEST";
  std::string secret_key = "ganglion-test-secret-key";
  /// The region a signature's scope must name.
  std::string region = "us-east-1";
};

/// One request the server answered.
struct s3_request {
  std::string method;
  std::string target;
  /// The S3 error code it answered, empty for a success.
  std::string error_code;
};

/// Serves until destroyed, on its own thread; connections are served concurrently.
class s3_server {
public:
  /// Starts listening on a free port.
  explicit s3_server(s3_server_options options = {});
  ~s3_server();
  s3_server(const s3_server&) = delete;
  s3_server& operator=(const s3_server&) = delete;

  /// Creates bucket `name` (empty) when absent.
  void put_bucket(const std::string& name);
  /// Stores `body` at `bucket`/`key`, creating the bucket.
  void put_object(const std::string& bucket, const std::string& key, std::string body);

  /// MinIO's ListenBucketNotification: writes a notification of `event`
  /// (`s3:ObjectCreated:Put`) on `bucket`/`key` (`size` bytes), one `{"Records":[…]}` line, to
  /// every open listen stream on `bucket` whose events, prefix and suffix take it.
  void notify(const std::string& bucket, const std::string& key, const std::string& event,
              std::int64_t size = 0);
  /// Writes `line` as it is to every open listen stream on `bucket`.
  void notify_line(const std::string& bucket, const std::string& line);
  /// The listen streams open now.
  std::size_t listeners() const;
  /// Closes every listen stream, as a dropped connection.
  void drop_listeners();

  /// `127.0.0.1:<port>`, what an S3 `endpoint` names.
  std::string endpoint() const;
  std::uint16_t port() const;
  const s3_server_options& options() const noexcept;
  /// Every request answered so far, in order.
  std::vector<s3_request> requests() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test::s3
