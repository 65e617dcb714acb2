#pragma once

// Not installed: the Kafka bus's state store, a compacted topic `<topic>-state`.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "client/client_config.hpp"
#include "bus/kafka_bus_config.hpp"
#include "bus/kafka_bus_producer.hpp"

namespace ganglion::kafka::detail {

/// Values keyed by name in a compacted topic: a store is a keyed record (a tombstone to
/// delete), partitioned by murmur2 of the key; a load reads the key's partition up to its
/// current end. What a load read is kept, so that the next load of that partition reads only
/// the records written since (a takeover loads many keys).
class kafka_state final : public core::state_store {
public:
  /// `producer` writes the records (it outlives this store).
  kafka_state(std::shared_ptr<const bus_settings> settings, bus_producer& producer);
  ~kafka_state() override;

  std::optional<std::string> load(const std::string& key) override;
  void store(const std::string& key, std::string value, core::store_done done) override;
  std::size_t max_value_bytes() const override;

private:
  /// The values of one partition read so far.
  struct partition_cache {
    std::int64_t next = -1; ///< the offset to read next; -1: nothing read
    std::unordered_map<std::string, std::string> values;
    std::size_t bytes = 0;
  };

  /// Creates the topic and the reader; learns the partition count (once).
  void prepare();
  /// Brings `cache_[partition]` up to the partition's current end.
  void catch_up(int partition);
  void apply(partition_cache& cache, std::string key, const void* value, std::size_t size);

  std::shared_ptr<const bus_settings> settings_;
  bus_producer& producer_;
  std::mutex mutex_; // one load at a time; guards everything below
  handle reader_;
  int partitions_ = 0;
  std::vector<partition_cache> cache_;
};

} // namespace ganglion::kafka::detail
