#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "client/listen_request.hpp"

namespace ganglion::minio::detail {

/// The credentials and trust of a stream.
struct listen_credentials {
  std::string access_key;
  std::string secret_key;
  /// SigV4 scope region; empty: `us-east-1`.
  std::string region;
  /// PEM of the CAs that verify the endpoint (`caCertificate`); empty: the system's.
  std::string ca_pem;
};

/// How a stream ended.
struct listen_result {
  /// Whether the server answered 200 (the stream was open).
  bool opened = false;
  /// Why it ended: the transfer error, or `HTTP <code> <S3 code>: <message>`; empty when the
  /// server closed an open stream or `stop` was set.
  std::string error;
};

/// Callbacks of a stream, run on the calling thread.
struct listen_handlers {
  /// The server answered 200: the stream is open.
  std::function<void()> on_open;
  /// One line of the stream (without its end of line); may block (back-pressure).
  std::function<void(std::string_view line)> on_line;
};

/// The longest line read (minio-go's scanner buffer).
constexpr std::size_t max_line = std::size_t{4} << 20;

/// Opens `target`'s ListenBucketNotification stream, signed with AWS SigV4 (libcurl's
/// `CURLOPT_AWS_SIGV4`, with the `x-amz-content-sha256` of the empty payload minio-go sends),
/// and calls `handlers` until the server closes it, it fails, or `stop` is set (checked at least
/// once a second). Blocks.
listen_result listen(const listen_target& target, const listen_credentials& credentials,
                     const listen_handlers& handlers, const std::atomic<bool>& stop);

} // namespace ganglion::minio::detail
