#pragma once

// Not installed: one sensor's subscription to the bus: its own consumer, assigned every
// partition of the events topic (no group membership), committing acknowledged offsets to the
// sensor's consumer group.

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client/client_config.hpp"
#include "bus/kafka_bus_acks.hpp"
#include "bus/kafka_bus_config.hpp"

namespace ganglion::kafka::detail {

/// Where a subscription starts in one partition.
struct partition_start {
  std::int64_t offset = RD_KAFKA_OFFSET_BEGINNING; ///< or a real offset
  offset_ranges skip;                              ///< acknowledged before the restart
};

/// A sensor's subscription. Delivers on its own thread; acknowledge() from any thread.
class bus_subscription final : public core::remote_subscription {
public:
  /// Opens the subscription of `sensor` to the records keyed `<source>.<event>` of `sources`
  /// in a topic of `partitions` partitions: resumes the group's committed offsets, or pins the
  /// current ends when the group has none. Throws std::runtime_error.
  bus_subscription(std::shared_ptr<const bus_settings> settings, const std::string& sensor,
                   const std::vector<std::pair<std::string, std::string>>& sources,
                   core::delivery_handler handler, int partitions);
  /// Stops the thread, commits what is acknowledged, closes the consumer.
  ~bus_subscription() override;

  void acknowledge(const std::vector<std::uint64_t>& sequences) override;

  /// The sequence of the record at `offset` of `partition`: partition << 48 | offset.
  static std::uint64_t sequence_of(std::int32_t partition, std::int64_t offset) noexcept {
    return (static_cast<std::uint64_t>(partition) << 48) | static_cast<std::uint64_t>(offset);
  }

private:
  std::vector<partition_start> find_starts(int partitions);
  void run();
  void take(const rd_kafka_message_t* message, std::vector<core::event_ptr>& batch);
  void commit(bool wait);
  void pause_or_resume();

  std::shared_ptr<const bus_settings> settings_;
  std::string sensor_;
  std::string group_;
  std::set<std::string, std::less<>> keys_;
  core::delivery_handler handler_;
  handle consumer_;

  std::mutex mutex_; // guards acks_, commit_failed_
  std::vector<partition_acks> acks_;
  std::vector<offset_ranges> skip_;
  bool commit_failed_ = false;
  bool paused_ = false;

  std::atomic<bool> stop_{false};
  std::thread thread_;

  friend void on_commit(rd_kafka_t*, rd_kafka_resp_err_t, rd_kafka_topic_partition_list_t*,
                        void*);
};

} // namespace ganglion::kafka::detail
