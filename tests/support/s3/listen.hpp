#pragma once

// MinIO's ListenBucketNotification for the test S3 endpoint (s3_server): the streams it holds
// open, which notifications each one gets, and the lines it writes. Internal to s3_server.cpp
// (it exposes Boost.Beast); see README.md.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace ganglion::test::s3 {

/// What one listen request asked for (its query: `events`, `prefix`, `suffix`).
struct listen_filter {
  std::string bucket;
  std::vector<std::string> events;
  std::string prefix;
  std::string suffix;

  /// Whether a notification of `event` (`s3:ObjectCreated:Put`) on `key` is for this stream:
  /// the key's prefix and suffix, and one of `events` (MinIO's `…:*` wildcards; none: all).
  bool matches(const std::string& key, const std::string& event) const;
};

/// Whether a GET of a bucket with query `query` is a ListenBucketNotification (it has `ping`
/// or `events`, as minio-go's request does).
bool is_listen_query(const std::string& query);

/// The filter of a listen request on `bucket` with query `query` (percent- and `+`-decoded).
listen_filter parse_listen_query(const std::string& bucket, const std::string& query);

/// One line of MinIO's stream, `{"Records":[…]}`, for `event` on `bucket`/`key` (`size` bytes):
/// MinIO's record fields (eventVersion 2.0, eventSource minio:s3, the time now, requester,
/// request parameters, response elements, s3 bucket and object, source) in MinIO's order.
std::string notification_line(const std::string& bucket, const std::string& key,
                              const std::string& event, std::int64_t size);

/// The open listen streams of one server; every call but count() runs on its io_context.
class listen_hub {
public:
  explicit listen_hub(boost::asio::io_context& context) : context_(context) {}

  /// Answers 200 with a chunked body on `stream` and keeps it for the notifications `filter`
  /// takes.
  void adopt(boost::beast::tcp_stream stream, unsigned version, listen_filter filter);
  /// Writes `line` (a newline is added) to each stream on `bucket` whose filter takes
  /// `event` on `key`; posted, so callable from any thread.
  void publish(const std::string& bucket, const std::string& key, const std::string& event,
               const std::string& line);
  /// Writes `line` (a newline is added) to each stream on `bucket`, whatever its filter; posted.
  void publish_raw(const std::string& bucket, const std::string& line);
  /// Closes every stream (a dropped connection); posted.
  void drop_all();
  /// The streams open now.
  std::size_t count() const noexcept { return count_.load(); }

private:
  struct stream_state;
  boost::asio::io_context& context_;
  std::vector<std::shared_ptr<stream_state>> streams_;
  std::atomic<std::size_t> count_{0};
};

} // namespace ganglion::test::s3
