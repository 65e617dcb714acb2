#pragma once

// Private: publishes a trigger's messages on one connection, on its own thread.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "client/connection.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::nats {

/// One connection and one thread. The connection is made on first use (a dry run that builds
/// the executor never connects); messages queued together are published and then confirmed by
/// one flush round trip.
class publisher {
public:
  /// `flush_timeout` bounds the wait for the server's confirmation; at most `max_queued`
  /// messages wait.
  publisher(connection_settings settings, std::chrono::milliseconds flush_timeout,
            std::size_t max_queued);
  /// Fails what is still queued ("trigger stopped"), then closes the connection.
  ~publisher();
  publisher(const publisher&) = delete;
  publisher& operator=(const publisher&) = delete;

  /// Queues one message; `done` runs once, on the publisher thread (at once when the queue is
  /// full). Not connected: the message fails without waiting for a reconnection.
  void publish(std::string subject, std::string payload, core::trigger_done done);

  /// The server URL(s), credentials removed.
  const std::string& shown_url() const noexcept { return shown_url_; }

private:
  struct job {
    std::string subject;
    std::string payload;
    core::trigger_done done;
  };

  void run();
  void send(std::deque<job>& batch);

  connection_settings settings_;
  std::string shown_url_;
  std::chrono::milliseconds flush_timeout_;
  std::size_t max_queued_;
  std::unique_ptr<connection> connection_; ///< used on the publisher thread only
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<job> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::nats
