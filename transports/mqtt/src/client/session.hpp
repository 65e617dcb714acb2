#pragma once

// Private: one libmosquitto client on its own thread: connects (the first time with the
// attempts of `connectionBackoff`, as Argo's DoWithRetry), subscribes on every connect (clean
// session, as paho's default), reconnects after a loss with a growing delay, and logs state
// changes only, throttled while the broker is away.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "client/client_settings.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/retry_schedule.hpp"

struct mosquitto;
struct mosquitto_message;

namespace ganglion::mqtt {

/// How the session behaves; the callbacks run on its thread.
struct session_options {
  std::string name;  ///< the prefix of its log lines
  std::string topic; ///< subscribed with QoS 0 on every connect
  int keepalive_seconds = 30;
  /// How long a connection may take to be acknowledged (CONNACK) before the attempt fails.
  std::chrono::milliseconds connect_timeout{5000};
  /// The attempts and waits of the first connection; when they are spent, `on_failed`.
  core::retry_schedule first_connect{dsl::backoff{}};
  /// First wait before reconnecting after a loss; doubles up to the maximum, forever.
  std::chrono::milliseconds min_reconnect_delay{100};
  std::chrono::milliseconds max_reconnect_delay{5000};
  /// A message of the subscription: topic, message id (0 at QoS 0), payload.
  std::function<void(std::string_view topic, int mid, std::string_view payload)> on_message;
  /// The broker acknowledged the subscription; `again` after a reconnection.
  std::function<void(bool again)> on_subscribed;
  /// The session stopped for good: the first connection could not be made, the broker refused
  /// the client (credentials, client id, authorisation) or the subscription.
  std::function<void(const std::string& reason)> on_failed;
};

/// A running client; destroying it disconnects and joins its thread.
class session {
public:
  /// Starts the thread; connecting happens there. Throws connection_error when libmosquitto
  /// refuses the settings.
  session(client_settings settings, session_options options);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

private:
  void run();
  /// One connection attempt and, once acknowledged, its life; returns why it ended.
  std::string connect_and_serve(bool first);
  bool wait(std::chrono::nanoseconds delay);
  void fail(const std::string& reason);

  static void on_connect(struct mosquitto*, void* self, int rc);
  static void on_subscribe(struct mosquitto*, void* self, int mid, int count, const int* granted);
  static void on_message(struct mosquitto*, void* self, const struct mosquitto_message* msg);
  static void on_log(struct mosquitto*, void* self, int level, const char* text);

  client_settings settings_;
  session_options options_;
  struct mosquitto* client_ = nullptr;
  std::thread thread_;

  std::mutex mutex_;
  std::condition_variable stop_changed_;
  bool stop_ = false;

  // The thread's own state (callbacks run on it too).
  bool acknowledged_ = false;    ///< CONNACK accepted in the current attempt
  bool ever_subscribed_ = false;
  std::string refused_;          ///< a CONNACK refusal that retrying will not cure
  std::string connack_problem_;  ///< why the broker refused the last CONNACK
  std::string library_error_;    ///< libmosquitto's last error line (OpenSSL's reason)
  core::log_throttle failure_log_; ///< failed attempts: one line per 30 s
};

} // namespace ganglion::mqtt
