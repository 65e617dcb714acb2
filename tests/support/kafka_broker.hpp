#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ganglion::test {

/// One Kafka record as a test produces or reads it.
struct kafka_record {
  std::string topic;
  std::int32_t partition = -1;
  std::int64_t offset = -1;
  std::optional<std::string> key;   ///< nullopt: a null key
  std::optional<std::string> value; ///< nullopt: a null value (a tombstone)
  std::vector<std::pair<std::string, std::string>> headers;
  std::int64_t timestamp_ms = -1; ///< the record's timestamp (ms since the epoch), -1 if none
};

/// An in-process Kafka cluster: librdkafka's mock cluster. Its brokers listen on real
/// 127.0.0.1 sockets, so any Kafka client — also a spawned `ganglion` process — can use it.
/// Consumer groups take about 3 s to join on the mock (use assign() where groups are not the
/// point). Destroying it closes every listener. Not copyable.
class kafka_broker {
public:
  /// Starts `brokers` brokers. Throws std::runtime_error.
  explicit kafka_broker(int brokers = 1);
  ~kafka_broker();
  kafka_broker(const kafka_broker&) = delete;
  kafka_broker& operator=(const kafka_broker&) = delete;

  /// The bootstrap list, `127.0.0.1:<port>,…`.
  std::string bootstraps() const;

  /// Creates `name` with `partitions` partitions (replication factor 1). Throws on failure.
  void create_topic(const std::string& name, int partitions);

  /// Produces one record and waits until the cluster holds it; returns its offset.
  /// `partition` -1: librdkafka's partitioner picks one; `timestamp_ms` 0: now.
  /// Throws std::runtime_error when the delivery fails.
  std::int64_t produce(const std::string& topic, const std::optional<std::string>& key,
                       const std::optional<std::string>& value,
                       const std::vector<std::pair<std::string, std::string>>& headers = {},
                       std::int32_t partition = -1, std::int64_t timestamp_ms = 0);

  /// Every record of `topic`, read from the beginning of each partition (no consumer group)
  /// until each partition's end or `timeout`; in partition order, then offset order.
  std::vector<kafka_record> consume_all(const std::string& topic,
                                        std::chrono::milliseconds timeout = std::chrono::seconds(5));

  /// The offset `group` committed for `topic`/`partition` (the next offset to read), or -1 when
  /// it committed none. Throws std::runtime_error when the cluster does not answer in `timeout`.
  std::int64_t committed(const std::string& group, const std::string& topic,
                         std::int32_t partition,
                         std::chrono::milliseconds timeout = std::chrono::seconds(5));

  /// Makes broker `id` (1-based) refuse connections, or accept them again.
  void set_down(std::int32_t id);
  void set_up(std::int32_t id);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test
