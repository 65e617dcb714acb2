#pragma once

// Private: the thread that serves one redis source's connection, and makes it again with
// backoff when the server goes away.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "client/connection.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/redis/transport.hpp"

namespace ganglion::redis {

/// One source's connection and serving thread.
class source_loop {
public:
  /// What a kind does on a connection.
  struct hooks {
    /// Runs on each new connection before serve (SUBSCRIBE, XGROUP CREATE). Throws
    /// connection_error.
    std::function<void(connection&)> prepare;
    /// Serves until stopping() (then returns) or the connection fails (connection_error).
    std::function<void(connection&)> serve;
  };

  source_loop(std::string name, server_settings settings, const options& opts, hooks h,
              std::function<void(const std::string&)> fail, const core::source_counters& metrics);
  /// Stops the thread: wakes its reads and waits, and closes the connection.
  ~source_loop();
  source_loop(const source_loop&) = delete;
  source_loop& operator=(const source_loop&) = delete;

  /// Connects and prepares once, then serves on a thread. Throws connection_error.
  void start();
  /// True once the loop is being stopped.
  bool stopping() const noexcept { return stopping_.load(); }
  /// Waits `delay` unless stopping; false when stopping.
  bool pause(std::chrono::milliseconds delay);
  /// The source's name for logs (`redis source es/event`).
  const std::string& name() const noexcept { return name_; }

private:
  void run(std::unique_ptr<connection> conn);
  std::unique_ptr<connection> reconnect(const std::string& why);

  std::string name_;
  server_settings settings_;
  options opts_;
  hooks hooks_;
  std::function<void(const std::string&)> fail_;
  const core::source_counters& metrics_;
  waker waker_;
  core::log_throttle retry_log_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable stop_changed_;
  std::thread thread_;
};

} // namespace ganglion::redis
