#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace ganglion::test {

/// The outcome of http_request: status 0 and `error` set when no response arrived.
struct http_response {
  long status = 0;
  std::string body;
  std::string error;
};

/// One blocking request with libcurl (10 s timeout); `headers` as `"Name: value"`.
http_response http_request(const std::string& method, const std::string& url,
                           const std::string& body = {},
                           const std::vector<std::string>& headers = {});

/// Polls `GET url` until it answers 200; false when `timeout` passes first.
bool wait_http_ok(const std::string& url, std::chrono::milliseconds timeout);

} // namespace ganglion::test
