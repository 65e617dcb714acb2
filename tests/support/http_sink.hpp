#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ganglion::test {

/// A free TCP port on 127.0.0.1 (bound once and released, so another process may race for it).
std::uint16_t free_port();

/// One request an http_sink received.
struct recorded_request {
  std::string method;
  std::string target;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::steady_clock::time_point at;

  /// The first value of header `name` (case-insensitive), "" when absent.
  std::string header(std::string_view name) const;
};

/// What an http_sink handler answers to one request.
struct sink_answer {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain";
  std::vector<std::pair<std::string, std::string>> headers; ///< extra header fields
};

/// Answers one request an http_sink received (on the sink's thread; must not block).
using sink_handler = std::function<sink_answer(const recorded_request&)>;

/// A real HTTP/1.1 server on 127.0.0.1 that records every request and answers with a fixed
/// status (body `ok`, or the one set_answer gives) after an optional delay. Runs on its own
/// thread; serves connections concurrently.
class http_sink {
public:
  /// Starts listening on a free port.
  explicit http_sink(int status = 200);
  /// Stops the server and joins its thread.
  ~http_sink();
  http_sink(const http_sink&) = delete;
  http_sink& operator=(const http_sink&) = delete;

  /// The bound port.
  std::uint16_t port() const;
  /// `http://127.0.0.1:<port><path>`.
  std::string url(const std::string& path = "/") const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// Waits until at least `count` requests arrived; false on timeout.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout) const;
  /// The status of later responses.
  void set_status(int status);
  /// The body, Content-Type and extra header fields of later responses (an API stand-in's
  /// answer, a `Retry-After`).
  void set_answer(std::string body, std::string content_type = "text/plain",
                  std::vector<std::pair<std::string, std::string>> headers = {});
  /// How long later responses are held back.
  void set_delay(std::chrono::milliseconds delay);
  /// Later responses come from `handler` (a provider API stand-in) instead of the fixed status;
  /// set it before requests arrive.
  void set_handler(sink_handler handler);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
