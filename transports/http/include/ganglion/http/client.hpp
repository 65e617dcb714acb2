#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ganglion::http {

/// TLS settings of an outgoing request (PEM text, not file names).
struct client_tls {
  std::string ca_certificate_pem;     ///< trusted CAs instead of the system store, when set
  std::string client_certificate_pem; ///< client certificate for mutual TLS
  std::string client_key_pem;
  bool insecure_skip_verify = false;
};

/// One outgoing request.
struct client_request {
  std::string method = "POST";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Whole-transfer timeout (connect, send, receive).
  std::chrono::milliseconds timeout{60000};
  /// HTTP basic credentials, when set.
  std::optional<std::pair<std::string, std::string>> basic_auth;
  /// AWS Signature Version 4 (libcurl's CURLOPT_AWS_SIGV4, `aws:amz:<region>:<service>`),
  /// signed with `aws_credentials`; not signed when empty. The headers given are signed too
  /// (an `X-Amz-Security-Token` among them). libcurl 7.88 does not sort the query string for
  /// the canonical request: a signed URL's query parameters must already be in order.
  std::string aws_sigv4;
  /// The access key id and secret access key `aws_sigv4` signs with.
  std::pair<std::string, std::string> aws_credentials;
  std::optional<client_tls> tls;
  /// Names of response headers to return in client_response::headers (case-insensitive);
  /// none when empty.
  std::vector<std::string> response_headers;
  /// A longer response body fails the request (`response body larger than N bytes`).
  std::size_t max_response_bytes = std::size_t{64} << 20;
};

/// How a request ended: `status` 0 and `error` set when no response arrived.
struct client_response {
  long status = 0;
  std::string body;
  std::string error;
  /// The response headers client_request::response_headers asked for, as received, in order
  /// (of the last response when redirects were followed).
  std::vector<std::pair<std::string, std::string>> headers;
};

/// Receives the response; runs on the client thread, so it must not block.
using client_completion = std::function<void(client_response)>;

/// Settings of a client.
struct client_options {
  /// Requests queued or in flight at once; submit() refuses more.
  std::size_t max_in_flight = 4096;
  /// Open connections per host (more requests wait for a free connection).
  long max_host_connections = 64;
  /// Open connections in total.
  long max_total_connections = 512;
};

/// An HTTP client: libcurl multi on one dedicated thread, with keep-alive connection reuse.
/// Thread-safe.
class client {
public:
  /// Starts the client thread.
  explicit client(client_options options = {});
  /// Shuts down (see shutdown()) and joins the thread; must not run inside a completion.
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Queues a request; `done` is called exactly once on the client thread. Returns false (and
  /// never calls `done`) when max_in_flight requests are pending or the client is shut down.
  bool submit(client_request request, client_completion done);

  /// Requests queued or in flight.
  std::size_t in_flight() const noexcept;

  /// Stops the client: pending requests complete with the error "HTTP client shut down".
  /// Waits for the client thread. Idempotent.
  void shutdown();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::http
