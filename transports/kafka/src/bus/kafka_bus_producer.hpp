#pragma once

// Not installed: the Kafka bus driver's producer, shared by publishes and state stores.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <thread>

#include "client/client_config.hpp"
#include "bus/kafka_bus_config.hpp"

namespace ganglion::kafka::detail {

/// The outcome of one produced message, reported once on the producer's poll thread.
class delivery {
public:
  virtual ~delivery() = default;
  /// `err` 0: the cluster stored the message; else `reason` explains why not.
  virtual void delivered(rd_kafka_resp_err_t err, const char* reason) noexcept = 0;
};

/// An idempotent producer (acks=all, linger 1 ms) with a thread that serves its delivery reports.
class bus_producer {
public:
  /// Creates the client (no wait for the cluster). Throws config_error.
  explicit bus_producer(const bus_settings& settings);
  /// Purges what is still queued (reported as purged), then stops.
  ~bus_producer();
  bus_producer(const bus_producer&) = delete;
  bus_producer& operator=(const bus_producer&) = delete;

  /// The librdkafka handle (also used for metadata and admin requests).
  rd_kafka_t* get() const noexcept { return handle_.get(); }

  /// The events topic and the state topic (keys partitioned by murmur2, as the Java client).
  rd_kafka_topic_t* events_topic() const noexcept { return events_; }
  rd_kafka_topic_t* state_topic() const noexcept { return state_; }

  /// Queues `value` (null: a tombstone) under `key`. On success the producer owns `report` and
  /// calls it once; on failure it returns the error at once and `report` stays with the caller.
  rd_kafka_resp_err_t produce(rd_kafka_topic_t* topic, std::string_view key,
                              const std::string* value, std::unique_ptr<delivery>& report);

  /// Waits up to `grace` for every queued message, then purges the rest; returns when every
  /// report has run (or a second after the purge).
  void drain(std::chrono::milliseconds grace);

private:
  void poll_loop();

  handle handle_;
  rd_kafka_topic_t* events_ = nullptr;
  rd_kafka_topic_t* state_ = nullptr;
  std::atomic<bool> stop_{false};
  std::thread poller_;
};

/// True for the errors of messages purged before delivery (the bus was closing).
bool is_purged(rd_kafka_resp_err_t err) noexcept;

} // namespace ganglion::kafka::detail
