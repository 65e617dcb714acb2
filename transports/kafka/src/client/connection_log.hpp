#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace ganglion::kafka::detail {

/// Turns librdkafka's log, error and statistics callbacks into spdlog lines: one line per
/// broker state change (unreachable → reachable again), not one per reconnect attempt, and any
/// other repeated message at most once per `repeat_window`. Thread-safe (librdkafka logs from
/// its own threads).
class connection_log {
public:
  /// `client` names the client in every line, e.g. `eventsource orders/created`.
  explicit connection_log(std::string client,
                          std::chrono::seconds repeat_window = std::chrono::seconds(60));

  /// librdkafka's log callback: `level` is a syslog level (0 emergency … 7 debug).
  void on_log(int level, std::string_view facility, std::string_view message);

  /// librdkafka's error callback (`code` an rd_kafka_resp_err_t).
  void on_error(int code, std::string_view code_name, std::string_view reason, bool fatal);

  /// librdkafka's statistics JSON: brokers seen `UP` are marked reachable.
  void on_stats(std::string_view json);

  /// Logs `text` (prefixed with the client) as a warning, unless it was logged within the
  /// repeat window.
  void warn(const std::string& text);

  /// The client's name as used in log lines.
  const std::string& client() const noexcept { return client_; }

private:
  enum class broker_state { unknown, up, down };

  void broker_down(const std::string& broker, std::string_view reason);
  void broker_up(const std::string& broker);
  /// True when `key` was not logged within the repeat window (and records it).
  bool first_in_window(const std::string& key);

  std::string client_;
  std::chrono::seconds repeat_window_;
  mutable std::mutex mutex_;
  std::map<std::string, broker_state> brokers_;
  std::map<std::string, std::chrono::steady_clock::time_point> recent_;
  bool all_down_ = false;
};

/// `reason` without librdkafka's ", N identical error(s) suppressed" note.
std::string without_suppression_note(std::string_view reason);

/// The broker a librdkafka error names (`127.0.0.1:9092/1` of `127.0.0.1:9092/1: Connect …`),
/// or empty.
std::string broker_of(std::string_view reason);

} // namespace ganglion::kafka::detail
