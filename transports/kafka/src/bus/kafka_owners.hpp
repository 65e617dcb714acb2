#pragma once

// Not installed: the Kafka bus's ownership: the replicas share the consumer group of the topic
// `<topic>-owners`, one partition per shard; the partitions assigned to a replica are the
// shards it owns.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <thread>

#include "client/client_config.hpp"
#include "bus/kafka_bus_config.hpp"
#include "bus/kafka_bus_producer.hpp"
#include "bus/kafka_owners_watch.hpp"

namespace ganglion::kafka::detail {

/// Shard ownership through a consumer group (cooperative-sticky: a rebalance moves only the
/// shards that change hands). The replica joins on the first watch(), so a process that only
/// publishes takes no shards.
class kafka_owners final : public core::ownership {
public:
  /// `producer` creates the topic (it outlives this object).
  kafka_owners(std::shared_ptr<const bus_settings> settings, bus_producer& producer);
  /// Leaves the group (reporting `false` to the watches of owned names first).
  ~kafka_owners() override;

  std::shared_ptr<void> watch(const std::string& name,
                              std::function<void(bool owned)> changed) override;
  const std::string& replica() const override { return settings_->options.replica_id; }

  /// The shards this replica owns now.
  std::vector<std::uint32_t> owned() const { return registry_->owned(); }

  /// librdkafka's rebalance callback (on the ownership thread).
  void rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                 rd_kafka_topic_partition_list_t* partitions);

private:
  void run();
  /// Creates the topic when missing and learns the shard count; false when stopped first.
  bool prepare();
  bool join();

  std::shared_ptr<const bus_settings> settings_;
  bus_producer& producer_;
  std::shared_ptr<watch_registry> registry_ = std::make_shared<watch_registry>();
  std::once_flag started_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  handle consumer_;
};

} // namespace ganglion::kafka::detail
