#pragma once

// The state of a watcher, shared by its loop (watch.cpp) and its stream (watch_stream.cpp).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "ganglion/kubernetes/watch.hpp"

namespace ganglion::kubernetes::detail {
class request_metrics;
class token_source;
} // namespace ganglion::kubernetes::detail

namespace ganglion::kubernetes {

/// What a watcher uses of its client's internals.
struct watch_client_parts {
  const cluster_config* config;
  detail::token_source* token;
  detail::request_metrics* metrics;
  std::chrono::milliseconds request_timeout;
  /// The client's acting_user (`Impersonate-User` of each watch); empty: none.
  std::string impersonate_user;
};

/// Wakes the watcher's thread: a response of its list request arrived, or it must stop.
/// Shared with the completions of its requests, which may outlive the watcher.
struct watch_signal {
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::optional<api_response> response;
};

/// How a watch stream ended.
enum class watch_end { closed, expired, failed, stopped };

struct watcher::impl {
  impl(api_client& client, watch_client_parts parts, std::string collection,
       watch_handlers handlers, watch_options options);
  ~impl();

  void run();
  /// Lists every page and calls on_list; false when stopped or failed (on_error called).
  bool list();
  /// The response to `request`; nullopt when the watcher stops first.
  std::optional<api_response> fetch(api_request request);
  /// Waits `delay`; false when the watcher stops first.
  bool wait(std::chrono::milliseconds delay);
  /// Watches from `version()` until the stream ends; `error` says why when it failed.
  /// `received` tells whether any line arrived.
  watch_end watch(std::string& error, bool& received);
  /// One line of the stream; false ends the stream with `end` and `error`.
  bool on_line(std::string_view line, watch_end& end, std::string& error);

  /// `collection` with `extra` (`name=value&…`) and the selectors as its query.
  std::string url_path(const std::string& extra) const;
  std::string version() const;
  void set_version(std::string version);
  void report(const std::string& error);

  api_client& client;
  watch_client_parts parts;
  std::string collection;
  watch_handlers handlers;
  watch_options options;
  std::shared_ptr<watch_signal> signal = std::make_shared<watch_signal>();
  std::atomic<bool> stop{false};
  /// The libcurl multi handle of the stream (void*: no libcurl in this header).
  void* multi = nullptr;
  mutable std::mutex version_mutex;
  std::string last_version;
  std::thread thread;
};

} // namespace ganglion::kubernetes
