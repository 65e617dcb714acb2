#pragma once

// The state of an api_client, shared by its files and the watcher (a friend).

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/delay_queue.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "client/request_metrics.hpp"
#include "client/token_source.hpp"

namespace ganglion::kubernetes {

struct api_client::impl {
  /// One request on its way, through its retries.
  struct attempt {
    api_request request;
    api_completion done;
    int retries_left = 0;
    bool token_retried = false;
    std::string token_used;
    std::chrono::steady_clock::time_point sent_at;
  };

  /// What discovery found for one group/version, and when.
  struct discovered {
    std::vector<resource_info> resources;
    std::chrono::steady_clock::time_point at;
  };

  impl(cluster_config config, client_options options);

  /// Sends (or sends again) `a`.
  void send(const std::shared_ptr<attempt>& a);
  void on_response(const std::shared_ptr<attempt>& a, http::client_response response);
  /// Calls `a.done` with `response`, exactly once.
  void finish(attempt& a, api_response response);
  /// The transport request of `a` (URL, headers, credentials, TLS, timeout).
  http::client_request transport_request(attempt& a);
  /// How long to wait before retrying a 429 `response`.
  std::chrono::milliseconds retry_delay(const http::client_response& response) const;

  cluster_config config;
  client_options options;
  detail::token_source token;
  detail::request_metrics metrics;
  std::atomic<std::size_t> outstanding{0};
  http::client http;
  detail::delay_queue delays;

  std::mutex discovery_mutex;
  std::map<std::string, discovered, std::less<>> discovery;
};

} // namespace ganglion::kubernetes
