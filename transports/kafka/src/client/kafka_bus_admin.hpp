#pragma once

// Not installed: the cluster requests of the Kafka bus driver and the source (topics, groups,
// offsets).

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <librdkafka/rdkafka.h>

namespace ganglion::kafka::detail {

/// The partition count of `topic`, asked through `rk` (a producer asks the broker to create a
/// missing topic with its defaults, where the broker allows it). Retries until `timeout`, then
/// throws std::runtime_error.
int partition_count(rd_kafka_t* rk, const std::string& topic, std::chrono::milliseconds timeout);

/// True when the cluster answers group administration requests. librdkafka's mock cluster does
/// not, and librdkafka 2.0.2 aborts the process when DeleteGroups meets a broker without it.
bool admin_supported(rd_kafka_t* rk, std::chrono::milliseconds timeout);

/// Creates `topic` with `partitions` partitions and `configs` unless it exists; throws
/// std::runtime_error when the cluster refuses for another reason.
void create_topic(rd_kafka_t* rk, const std::string& topic, int partitions,
                  const std::map<std::string, std::string>& configs,
                  std::chrono::milliseconds timeout);

/// Deletes the consumer group `group` (a missing group is no error); throws std::runtime_error.
void delete_group(rd_kafka_t* rk, const std::string& group, std::chrono::milliseconds timeout);

/// The end offset (high watermark) of each of the first `partitions` partitions of `topic`.
/// Throws std::runtime_error.
std::vector<std::int64_t> end_offsets(rd_kafka_t* rk, const std::string& topic, int partitions,
                                      std::chrono::milliseconds timeout);

/// Commits `offsets` (with their metadata) for `rk`'s group and waits up to `timeout` for the
/// answer; the error text, empty when committed.
std::string commit_and_wait(rd_kafka_t* rk, const rd_kafka_topic_partition_list_t* offsets,
                            std::chrono::milliseconds timeout);

} // namespace ganglion::kafka::detail
