#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "source/consumer_loop.hpp"

namespace ganglion::kafka::detail {

void consumer_loop::on_rebalance(rd_kafka_resp_err_t err,
                                 rd_kafka_topic_partition_list_t* partitions) {
  rd_kafka_t* rk = consumer_.get();
  bool cooperative = std::strcmp(rd_kafka_rebalance_protocol(rk), "COOPERATIVE") == 0;
  std::vector<std::int32_t> numbers;
  for (int i = 0; i < partitions->cnt; ++i)
    numbers.push_back(partitions->elems[i].partition);

  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    for (auto p : numbers)
      owned_[p] = owned_partition{{}, next_epoch_++};
    rd_kafka_error_t* error = nullptr;
    if (cooperative)
      error = rd_kafka_incremental_assign(rk, partitions);
    else
      rd_kafka_assign(rk, partitions);
    if (error) {
      spdlog::error("kafka {}: cannot take partitions {} of {}: {}", name_, numbers, spec_.topic,
                    rd_kafka_error_string(error));
      rd_kafka_error_destroy(error);
    }
    // While reading is paused, new partitions are paused too (resumed with the others).
    if (paused_)
      rd_kafka_pause_partitions(rk, partitions);
    spdlog::info("kafka {}: reading partitions {} of {}", name_, numbers, spec_.topic);
    return;
  }

  if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
    // Commit what was accepted before another member takes over (unless the partitions were
    // lost: then the commit would be refused anyway).
    if (!rd_kafka_assignment_lost(rk))
      commit_partitions(partitions);
  } else {
    spdlog::warn("kafka {}: rebalance failed: {}", name_, rd_kafka_err2str(err));
  }
  for (auto p : numbers)
    forget(p);
  if (cooperative) {
    if (auto* error = rd_kafka_incremental_unassign(rk, partitions))
      rd_kafka_error_destroy(error);
  } else {
    rd_kafka_assign(rk, nullptr);
  }
  if (!numbers.empty())
    spdlog::info("kafka {}: released partitions {} of {}", name_, numbers, spec_.topic);
}

void consumer_loop::commit_partitions(const rd_kafka_topic_partition_list_t* partitions) {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions->cnt);
  for (int i = 0; i < partitions->cnt; ++i) {
    auto owned = owned_.find(partitions->elems[i].partition);
    if (owned != owned_.end() && owned->second.progress.commit_point() >= 0)
      rd_kafka_topic_partition_list_add(list, spec_.topic.c_str(), owned->first)->offset =
        owned->second.progress.commit_point();
  }
  if (list->cnt > 0)
    if (auto err = rd_kafka_commit(consumer_.get(), list, 0))
      spdlog::warn("kafka {}: cannot commit offsets of released partitions: {}", name_,
                   rd_kafka_err2str(err));
  rd_kafka_topic_partition_list_destroy(list);
}

void consumer_loop::forget(std::int32_t partition) {
  owned_.erase(partition);
  auto of_partition = [partition](const auto& item) { return item.partition == partition; };
  std::erase_if(backlog_, of_partition);
  std::erase_if(retry_, of_partition);
  std::erase_if(in_flight_, [partition](const auto& entry) { return entry.first.first == partition; });
}

} // namespace ganglion::kafka::detail
