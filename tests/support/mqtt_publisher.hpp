#pragma once

// A plain libmosquitto client for the test side of the mqtt tests.

#include <condition_variable>
#include <mutex>
#include <set>
#include <string>

struct mosquitto;

namespace ganglion::test {

/// Connects to a plain broker on 127.0.0.1 and publishes with QoS 1 (the broker acknowledges
/// each message before publish() returns).
class mqtt_publisher {
public:
  /// Connects to 127.0.0.1:`port`; `user` empty: anonymous. Throws std::runtime_error.
  explicit mqtt_publisher(int port, const std::string& user = {},
                          const std::string& password = {});
  ~mqtt_publisher();
  mqtt_publisher(const mqtt_publisher&) = delete;
  mqtt_publisher& operator=(const mqtt_publisher&) = delete;

  /// Publishes `payload` on `topic` and waits (5 s at most) for the broker's PUBACK; false when
  /// it did not come.
  bool publish(const std::string& topic, const std::string& payload, bool retain = false);

private:
  struct mosquitto* client_ = nullptr;
  std::mutex mutex_;
  std::condition_variable acked_changed_;
  std::set<int> acked_;
  bool connected_ = false;
};

} // namespace ganglion::test
