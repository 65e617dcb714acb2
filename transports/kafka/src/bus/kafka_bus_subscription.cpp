#include "bus/kafka_bus_subscription.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/event_codec.hpp"
#include "client/kafka_bus_admin.hpp"

namespace ganglion::kafka::detail {

namespace {

constexpr auto commit_interval = std::chrono::milliseconds(50);
constexpr std::size_t max_batch = 512;

struct list_deleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const noexcept {
    rd_kafka_topic_partition_list_destroy(l);
  }
};
using list_ptr = std::unique_ptr<rd_kafka_topic_partition_list_t, list_deleter>;

list_ptr all_partitions(const std::string& topic, int partitions) {
  list_ptr list{rd_kafka_topic_partition_list_new(partitions)};
  for (int p = 0; p < partitions; ++p)
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), p);
  return list;
}

void set_metadata(rd_kafka_topic_partition_t& tp, const std::string& metadata) {
  if (metadata.empty())
    return;
  tp.metadata = std::malloc(metadata.size()); // freed by the list
  std::memcpy(tp.metadata, metadata.data(), metadata.size());
  tp.metadata_size = metadata.size();
}

} // namespace

void on_commit(rd_kafka_t*, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* offsets,
               void* opaque) {
  auto* self = static_cast<bus_subscription*>(user_of(opaque));
  if (self == nullptr)
    return;
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR && offsets != nullptr)
    for (int i = 0; i < offsets->cnt; ++i)
      if (offsets->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        err = offsets->elems[i].err;
        break;
      }
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR__NO_OFFSET)
    return;
  self->consumer_.log().on_error(err, rd_kafka_err2name(err),
                                 fmt::format("committing the offsets of group {}: {}",
                                             self->group_, rd_kafka_err2str(err)),
                                 false);
  std::lock_guard guard{self->mutex_};
  self->commit_failed_ = true;
}

bus_subscription::bus_subscription(std::shared_ptr<const bus_settings> settings,
                                   const std::string& sensor,
                                   const std::vector<std::pair<std::string, std::string>>& sources,
                                   core::delivery_handler handler, int partitions)
  : settings_(std::move(settings)), sensor_(sensor), group_(settings_->group_of(sensor)),
    handler_(std::move(handler)) {
  for (const auto& [source, event] : sources)
    keys_.insert(source + "." + event);
  auto cfg = settings_->client("sensor-" + sensor);
  cfg.hooks->user = this;
  set_property(cfg, "group.id", group_);
  set_property(cfg, "enable.auto.commit", "false");
  set_property(cfg, "enable.auto.offset.store", "false");
  set_property(cfg, "auto.offset.reset", "earliest");
  set_property(cfg, "enable.partition.eof", "false");
  if (!settings_->options.properties.count("fetch.wait.max.ms")) // an explicit one wins
    set_property(cfg, "fetch.wait.max.ms", ms(settings_->options.fetch_max_wait));
  quiet_connection_errors(cfg);
  rd_kafka_conf_set_offset_commit_cb(cfg.conf.get(), on_commit);
  consumer_ = make_handle(RD_KAFKA_CONSUMER, std::move(cfg));
  rd_kafka_poll_set_consumer(consumer_.get());

  // Learning the partition leaders now lets the first fetch start at once after assign()
  // (otherwise librdkafka waits about a second for its own metadata refresh).
  partition_count(consumer_.get(), settings_->topic, settings_->options.request_timeout);
  auto starts = find_starts(partitions);
  auto list = all_partitions(settings_->topic, partitions);
  for (int p = 0; p < partitions; ++p) {
    auto& start = starts[static_cast<std::size_t>(p)];
    list->elems[p].offset = start.offset;
    acks_.emplace_back(start.offset >= 0 ? start.offset : -1);
    skip_.push_back(std::move(start.skip));
  }
  if (auto err = rd_kafka_assign(consumer_.get(), list.get()); err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(fmt::format("kafka bus: sensor {}: assigning topic {}: {}", sensor_,
                                         settings_->topic, rd_kafka_err2str(err)));
  thread_ = std::thread([this] { run(); });
}

std::vector<partition_start> bus_subscription::find_starts(int partitions) {
  auto timeout = settings_->options.request_timeout;
  auto committed = all_partitions(settings_->topic, partitions);
  auto err =
    rd_kafka_committed(consumer_.get(), committed.get(), static_cast<int>(timeout.count()));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(fmt::format(
      "kafka bus: sensor {}: reading the offsets of group {}: {}", sensor_, group_,
      rd_kafka_err2str(err)));
  std::vector<partition_start> starts(static_cast<std::size_t>(partitions));
  bool known = false;
  for (int i = 0; i < committed->cnt; ++i) {
    const auto& tp = committed->elems[i];
    std::string_view metadata(static_cast<const char*>(tp.metadata), tp.metadata_size);
    if (tp.offset < 0 || metadata == forgotten_marker)
      continue;
    auto& start = starts[static_cast<std::size_t>(tp.partition)];
    start.offset = tp.offset;
    start.skip = offset_ranges::decode(metadata, tp.offset);
    known = true;
  }
  if (known)
    return starts; // partitions added since then start at their beginning
  // A new group: it starts at the current ends, committed at once so that a restart before the
  // first acknowledgement resumes there too.
  auto ends = end_offsets(consumer_.get(), settings_->topic, partitions, timeout);
  auto pin = all_partitions(settings_->topic, partitions);
  for (int p = 0; p < partitions; ++p) {
    starts[static_cast<std::size_t>(p)].offset = ends[static_cast<std::size_t>(p)];
    pin->elems[p].offset = ends[static_cast<std::size_t>(p)];
  }
  if (auto error = commit_and_wait(consumer_.get(), pin.get(), timeout); !error.empty())
    throw std::runtime_error(fmt::format(
      "kafka bus: sensor {}: committing the start of group {}: {}", sensor_, group_, error));
  spdlog::debug("kafka bus: sensor {} starts group {} at the end of topic {}", sensor_, group_,
                settings_->topic);
  return starts;
}

bus_subscription::~bus_subscription() {
  stop_ = true;
  thread_.join();
  commit(true);
  close_consumer(consumer_.get());
}

void bus_subscription::acknowledge(const std::vector<std::uint64_t>& sequences) {
  std::lock_guard guard{mutex_};
  for (auto sequence : sequences) {
    auto partition = static_cast<std::size_t>(sequence >> 48);
    if (partition < acks_.size())
      acks_[partition].acknowledge(static_cast<std::int64_t>(sequence & ((1ull << 48) - 1)));
  }
}

void bus_subscription::run() {
  auto last_commit = std::chrono::steady_clock::now();
  std::vector<core::event_ptr> batch;
  while (!stop_.load(std::memory_order_relaxed)) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer_.get(), 50);
    std::size_t taken = 0;
    while (message != nullptr) {
      take(message, batch);
      rd_kafka_message_destroy(message);
      if (++taken == max_batch)
        break;
      message = rd_kafka_consumer_poll(consumer_.get(), 0);
    }
    if (!batch.empty()) {
      try {
        handler_(std::move(batch));
      } catch (const std::exception& ex) {
        spdlog::error("kafka bus: sensor {}: the delivery handler threw: {}", sensor_, ex.what());
      }
      batch.clear();
    }
    if (auto now = std::chrono::steady_clock::now(); now - last_commit >= commit_interval) {
      commit(false);
      last_commit = now;
    }
    pause_or_resume();
  }
}

void bus_subscription::take(const rd_kafka_message_t* message,
                            std::vector<core::event_ptr>& batch) {
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF &&
        message->err != RD_KAFKA_RESP_ERR__TRANSPORT) // librdkafka reconnects by itself
      consumer_.log().on_error(message->err, rd_kafka_err2name(message->err),
                               rd_kafka_message_errstr(message), false);
    return;
  }
  auto partition = static_cast<std::size_t>(message->partition);
  if (partition >= acks_.size())
    return;
  std::string_view key(static_cast<const char*>(message->key), message->key_len);
  bool wanted = keys_.find(key) != keys_.end();
  bool skipped = skip_[partition].contains(message->offset);
  core::event e;
  if (wanted && !skipped &&
      !core::decode_event({static_cast<const char*>(message->payload), message->len}, e)) {
    spdlog::warn("kafka bus: sensor {}: record {}[{}]@{} (key {}) is not an event; skipped",
                 sensor_, settings_->topic, message->partition, message->offset, key);
    wanted = false;
  }
  bool deliver = wanted && !skipped;
  {
    std::lock_guard guard{mutex_};
    if (!acks_[partition].delivered(message->offset, !deliver) || !deliver)
      return;
  }
  e.sequence = sequence_of(message->partition, message->offset);
  batch.push_back(std::make_shared<const core::event>(std::move(e)));
}

void bus_subscription::commit(bool wait) {
  list_ptr offsets{rd_kafka_topic_partition_list_new(static_cast<int>(acks_.size()))};
  {
    std::lock_guard guard{mutex_};
    bool all = std::exchange(commit_failed_, false);
    for (std::size_t p = 0; p < acks_.size(); ++p) {
      auto& acks = acks_[p];
      if ((!acks.changed() && !all) || acks.position() < 0)
        continue;
      auto* tp = rd_kafka_topic_partition_list_add(offsets.get(), settings_->topic.c_str(),
                                                   static_cast<std::int32_t>(p));
      tp->offset = acks.position();
      set_metadata(*tp, acks.metadata());
      acks.mark_committed();
    }
  }
  if (offsets->cnt == 0)
    return;
  if (!wait) {
    rd_kafka_commit(consumer_.get(), offsets.get(), 1);
    return;
  }
  auto timeout = std::min(settings_->options.request_timeout, close_timeout);
  if (auto error = commit_and_wait(consumer_.get(), offsets.get(), timeout); !error.empty())
    spdlog::warn("kafka bus: sensor {}: the last commit of group {} failed ({}); its "
                 "acknowledged events will be delivered again",
                 sensor_, group_, error);
}

void bus_subscription::pause_or_resume() {
  std::size_t unacknowledged = 0;
  {
    std::lock_guard guard{mutex_};
    for (const auto& acks : acks_)
      unacknowledged += acks.unacknowledged();
  }
  auto limit = settings_->options.max_unacknowledged;
  bool pause = unacknowledged >= limit;
  bool resume = unacknowledged < limit / 2;
  if ((paused_ && !resume) || (!paused_ && !pause))
    return;
  auto list = all_partitions(settings_->topic, static_cast<int>(acks_.size()));
  if (pause) {
    rd_kafka_pause_partitions(consumer_.get(), list.get());
    spdlog::warn("kafka bus: sensor {} holds {} unacknowledged events; consumption paused",
                 sensor_, unacknowledged);
  } else {
    rd_kafka_resume_partitions(consumer_.get(), list.get());
    spdlog::info("kafka bus: sensor {}: consumption resumed", sensor_);
  }
  paused_ = pause;
}

} // namespace ganglion::kafka::detail
