#include "bus/kafka_owners.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "client/kafka_bus_admin.hpp"

namespace ganglion::kafka::detail {

namespace {

void on_rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                  rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  if (auto* self = static_cast<kafka_owners*>(user_of(opaque)))
    self->rebalance(rk, err, partitions);
}

std::vector<std::int32_t> shards_of(const rd_kafka_topic_partition_list_t* partitions) {
  std::vector<std::int32_t> out;
  for (int i = 0; partitions != nullptr && i < partitions->cnt; ++i)
    out.push_back(partitions->elems[i].partition);
  return out;
}

void check(rd_kafka_error_t* error, const char* what) {
  if (error == nullptr)
    return;
  spdlog::error("kafka bus: ownership: {}: {}", what, rd_kafka_error_string(error));
  rd_kafka_error_destroy(error);
}

} // namespace

kafka_owners::kafka_owners(std::shared_ptr<const bus_settings> settings, bus_producer& producer)
  : settings_(std::move(settings)), producer_(producer) {}

kafka_owners::~kafka_owners() {
  stop_ = true;
  if (thread_.joinable())
    thread_.join();
}

std::shared_ptr<void> kafka_owners::watch(const std::string& name,
                                          std::function<void(bool owned)> changed) {
  auto handle = registry_->add(name, std::move(changed));
  std::call_once(started_, [this] { thread_ = std::thread([this] { run(); }); });
  return handle;
}

bool kafka_owners::prepare() {
  auto backoff = std::chrono::milliseconds(200);
  std::string last_error;
  while (!stop_) {
    try {
      // Short attempts: the destructor waits for the one in progress.
      auto timeout = std::min(settings_->options.request_timeout, std::chrono::milliseconds(2000));
      if (admin_supported(producer_.get(), timeout))
        create_topic(producer_.get(), settings_->owners_topic,
                     static_cast<int>(settings_->options.shards), {}, timeout);
      auto count = partition_count(producer_.get(), settings_->owners_topic, timeout);
      if (static_cast<std::uint32_t>(count) != settings_->options.shards)
        spdlog::warn("kafka bus: topic {} has {} partitions: the bus uses {} shards, not {}",
                     settings_->owners_topic, count, count, settings_->options.shards);
      registry_->set_shards(static_cast<std::uint32_t>(count));
      if (!last_error.empty())
        spdlog::info("kafka bus: ownership topic {} is ready", settings_->owners_topic);
      return true;
    } catch (const std::exception& ex) {
      if (last_error != ex.what())
        spdlog::warn("{}; retrying", ex.what());
      last_error = ex.what();
    }
    for (auto waited = std::chrono::milliseconds(0); waited < backoff && !stop_;
         waited += std::chrono::milliseconds(50))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
  }
  return false;
}

bool kafka_owners::join() {
  try {
    auto cfg = settings_->client("owners");
    cfg.hooks->user = this;
    set_property(cfg, "group.id", settings_->owners_topic);
    set_property(cfg, "partition.assignment.strategy", "cooperative-sticky");
    set_property(cfg, "session.timeout.ms", ms(settings_->options.session_timeout));
    set_property(cfg, "heartbeat.interval.ms", ms(settings_->options.heartbeat_interval));
    set_property(cfg, "enable.auto.commit", "false");
    set_property(cfg, "auto.offset.reset", "latest");
    rd_kafka_conf_set_rebalance_cb(cfg.conf.get(), on_rebalance);
    consumer_ = make_handle(RD_KAFKA_CONSUMER, std::move(cfg));
  } catch (const std::exception& ex) {
    spdlog::error("kafka bus: ownership: {}", ex.what());
    return false;
  }
  rd_kafka_poll_set_consumer(consumer_.get());
  auto* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, settings_->owners_topic.c_str(), RD_KAFKA_PARTITION_UA);
  auto err = rd_kafka_subscribe(consumer_.get(), topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    spdlog::error("kafka bus: ownership: subscribing to {}: {}", settings_->owners_topic,
                  rd_kafka_err2str(err));
    return false;
  }
  return true;
}

void kafka_owners::run() {
  if (!prepare() || !join())
    return;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer_.get(), 100))
      rd_kafka_message_destroy(m); // the topic carries no records; errors reach the log
    registry_->sync_fresh();
  }
  // Revokes through rebalance(), then leaves; a replica that cannot reach the cluster leaves
  // by its session timeout instead.
  if (!close_consumer(consumer_.get()))
    spdlog::warn("kafka bus: ownership: could not leave the group; its shards move after the "
                 "session timeout");
  registry_->clear_owned();
  registry_->sync_all();
  consumer_.reset();
}

void kafka_owners::rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                             rd_kafka_topic_partition_list_t* partitions) {
  bool cooperative = std::strcmp(rd_kafka_rebalance_protocol(rk), "COOPERATIVE") == 0;
  auto shards = shards_of(partitions);
  std::sort(shards.begin(), shards.end());
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    if (cooperative)
      check(rd_kafka_incremental_assign(rk, partitions), "assign");
    else
      rd_kafka_assign(rk, partitions);
    registry_->set_owned(shards, true);
    if (!shards.empty())
      spdlog::info("kafka bus: replica {} owns shards {} (now {})", replica(), shards,
                   registry_->owned());
    registry_->sync_all();
    return;
  }
  // Revoked, lost, or an error: the watches hear `false` before another replica can own them.
  if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
    registry_->set_owned(shards, false);
  } else {
    spdlog::warn("kafka bus: ownership rebalance failed: {}", rd_kafka_err2str(err));
    registry_->clear_owned();
  }
  registry_->sync_all();
  if (!shards.empty())
    spdlog::info("kafka bus: replica {} {} shards {}", replica(),
                 rd_kafka_assignment_lost(rk) ? "lost" : "released", shards);
  if (cooperative && err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS)
    check(rd_kafka_incremental_unassign(rk, partitions), "unassign");
  else
    rd_kafka_assign(rk, nullptr);
}

} // namespace ganglion::kafka::detail
