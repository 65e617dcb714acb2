#include "source/consumer_loop.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/kafka/internal/event_data.hpp"
#include "client/kafka_bus_admin.hpp"

namespace ganglion::kafka::detail {

namespace {

using std::chrono::milliseconds;

/// Messages taken from the consumer per poll round before offering again.
constexpr int poll_batch = 512;

std::optional<std::string_view> bytes_of(const void* data, std::size_t size) {
  if (data == nullptr)
    return std::nullopt;
  return std::string_view(static_cast<const char*>(data), size);
}

} // namespace

void outcome_box::push(publish_outcome outcome) {
  std::lock_guard guard{mutex};
  items.push_back(std::move(outcome));
  if (loop_polling)
    wake_locked();
  ready.notify_one();
}

void outcome_box::wake_locked() {
  if (wake_consumer)
    rd_kafka_queue_yield(wake_consumer);
  if (wake_main)
    rd_kafka_queue_yield(wake_main);
}

std::vector<publish_outcome> outcome_box::take() {
  std::lock_guard guard{mutex};
  return std::exchange(items, {});
}

consumer_loop::consumer_loop(consumer_spec spec, std::shared_ptr<core::bus_publisher> bus,
                             source_metrics metrics, const source_options& options)
  : spec_(std::move(spec)),
    bus_(std::move(bus)),
    metrics_(std::move(metrics)),
    options_(options),
    name_(fmt::format("eventsource {}/{}", spec_.event_source, spec_.event_name)),
    pace_(spec_.limit_per_second, spec_.limit_per_second / 100),
    backoff_(options.retry_initial) {
  metrics_.track_lag([lag = lag_] { return lag->load(std::memory_order_relaxed); });
}

consumer_loop::~consumer_loop() {
  stopping_ = true;
  {
    std::lock_guard guard{box_->mutex};
    box_->wake_locked();
  }
  if (thread_.joinable())
    thread_.join();
}

void consumer_loop::start(handle consumer) {
  consumer_ = std::move(consumer);
  consumer_queue_ = rd_kafka_queue_get_consumer(consumer_.get());
  main_queue_ = rd_kafka_queue_get_main(consumer_.get());
  {
    std::lock_guard guard{box_->mutex};
    box_->wake_consumer = consumer_queue_;
    box_->wake_main = main_queue_;
  }
  thread_ = std::thread([this] { run(); });
}

void consumer_loop::run() {
  begin();
  while (!stopping_) {
    settle_outcomes();
    commit(false, false);
    flow_control(); // before offering: it measures how long the last poll left the backlog full
    poll(offer());
    measure_lag();
  }
  shutdown();
}

namespace {

/// How long a paused source waits for the broker's high watermark of one partition.
constexpr int lag_query_timeout_ms = 500;

} // namespace

void consumer_loop::measure_lag() {
  auto now = clock::now();
  if (now < next_lag_)
    return;
  next_lag_ = now + std::chrono::seconds(1);
  rd_kafka_t* rk = consumer_.get();
  auto* list = rd_kafka_topic_partition_list_new(static_cast<int>(owned_.size()));
  for (const auto& [partition, owned] : owned_)
    rd_kafka_topic_partition_list_add(list, spec_.topic.c_str(), partition);
  std::int64_t lag = 0;
  // The position is the next offset to read. The high watermark is librdkafka's value from its
  // last fetch while the source reads; a paused source fetches nothing, so then it is asked of
  // the broker (which is when the lag grows).
  if (list->cnt > 0 && rd_kafka_position(rk, list) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    for (int i = 0; i < list->cnt; ++i) {
      const auto& p = list->elems[i];
      std::int64_t low = 0;
      std::int64_t high = 0;
      // A broker slow to answer leaves the last fetch's value, not nothing.
      if (!paused_
          || rd_kafka_query_watermark_offsets(rk, p.topic, p.partition, &low, &high,
                                              lag_query_timeout_ms)
               != RD_KAFKA_RESP_ERR_NO_ERROR)
        if (rd_kafka_get_watermark_offsets(rk, p.topic, p.partition, &low, &high)
            != RD_KAFKA_RESP_ERR_NO_ERROR)
          continue;
      if (p.offset >= 0)
        lag += std::max<std::int64_t>(0, high - p.offset);
    }
  }
  rd_kafka_topic_partition_list_destroy(list);
  lag_->store(lag, std::memory_order_relaxed);
}

void consumer_loop::begin() {
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  if (spec_.partition) {
    // No group: the partition starts at the offset committed for group.id, else at
    // auto.offset.reset (latest, as Argo's OffsetNewest).
    rd_kafka_topic_partition_list_add(list, spec_.topic.c_str(), *spec_.partition)->offset =
      RD_KAFKA_OFFSET_INVALID;
    owned_[*spec_.partition].epoch = next_epoch_++;
    if (auto err = rd_kafka_assign(consumer_.get(), list))
      spdlog::error("kafka {}: cannot assign {}[{}]: {}", name_, spec_.topic, *spec_.partition,
                    rd_kafka_err2str(err));
  } else {
    rd_kafka_topic_partition_list_add(list, spec_.topic.c_str(), RD_KAFKA_PARTITION_UA);
    if (auto err = rd_kafka_subscribe(consumer_.get(), list))
      spdlog::error("kafka {}: cannot subscribe to {}: {}", name_, spec_.topic,
                    rd_kafka_err2str(err));
  }
  rd_kafka_topic_partition_list_destroy(list);
}

void consumer_loop::poll(milliseconds timeout) {
  timeout = std::clamp(timeout, milliseconds{0}, milliseconds{100});
  {
    std::lock_guard guard{box_->mutex};
    if (!box_->items.empty())
      timeout = milliseconds{0};
    box_->loop_polling = true;
  }
  rd_kafka_t* rk = consumer_.get();
  auto ms = static_cast<int>(timeout.count());
  rd_kafka_message_t* m = nullptr;
  if (backlog_.size() >= options_.max_backlog && !paused_) {
    // Messages wait in librdkafka's queue; errors and statistics are still served.
    rd_kafka_poll(rk, ms);
  } else {
    rd_kafka_poll(rk, 0);
    m = rd_kafka_consumer_poll(rk, ms);
  }
  {
    std::lock_guard guard{box_->mutex};
    box_->loop_polling = false;
  }
  for (int n = 0; m != nullptr; ++n) {
    read(m);
    rd_kafka_message_destroy(m);
    if (n + 1 >= poll_batch || backlog_.size() >= options_.max_backlog || stopping_)
      break;
    m = rd_kafka_consumer_poll(rk, 0);
  }
}

void consumer_loop::read(rd_kafka_message_t* m) {
  if (m->err) {
    consumer_error(m->err, rd_kafka_message_errstr(m));
    return;
  }
  if (last_error_ != RD_KAFKA_RESP_ERR_NO_ERROR) {
    spdlog::info("kafka {}: reading {} again", name_, spec_.topic);
    last_error_ = RD_KAFKA_RESP_ERR_NO_ERROR;
  }
  auto owned = owned_.find(m->partition);
  if (owned == owned_.end())
    return;
  metrics_.received();
  owned->second.progress.read(m->offset);

  record_view record;
  record.topic = spec_.topic;
  record.partition = m->partition;
  record.offset = m->offset;
  record.key = bytes_of(m->key, m->key_len);
  record.value = bytes_of(m->payload, m->len);
  record.timestamp_ms = rd_kafka_message_timestamp(m, nullptr);
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name = nullptr;
    const void* value = nullptr;
    std::size_t size = 0;
    for (std::size_t i = 0;
         rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
         ++i)
      record.headers.emplace_back(name, bytes_of(value, size).value_or(std::string_view{}));
  }

  std::string error;
  auto data = event_data(record, spec_.json_body, spec_.metadata, error);
  if (!data) {
    // A message that can never become an event: dropped (as Argo), so it does not hold back
    // the commit point.
    metrics_.rejected("bad_body");
    owned->second.progress.settle(m->offset);
    auto now = clock::now();
    if (now - last_bad_body_log_ >= std::chrono::seconds(1)) {
      last_bad_body_log_ = now;
      spdlog::warn("kafka {}: dropping {}[{}]@{}: {}", name_, spec_.topic, m->partition,
                   m->offset, error);
    }
    return;
  }
  pending_event item;
  item.event = core::make_event(spec_.event_source, "kafka", spec_.event_name, std::move(*data),
                                event_id(spec_.event_source, spec_.event_name, spec_.url,
                                         spec_.topic, m->partition, m->offset));
  item.partition = m->partition;
  item.offset = m->offset;
  item.epoch = owned->second.epoch;
  backlog_.push_back(std::move(item));
}

void consumer_loop::consumer_error(rd_kafka_resp_err_t err, const char* text) {
  if (err == RD_KAFKA_RESP_ERR__PARTITION_EOF)
    return;
  if (err != last_error_)
    spdlog::warn("kafka {}: cannot read {}: {}; retrying", name_, spec_.topic, text);
  last_error_ = err;
}

milliseconds consumer_loop::offer() {
  auto now = clock::now();
  auto until = [&](clock::time_point t) {
    return std::chrono::ceil<milliseconds>(t - now) + milliseconds{1};
  };
  while (!retry_.empty() || !backlog_.empty()) {
    bool from_retry = !retry_.empty();
    if (from_retry && now < retry_not_before_)
      return until(retry_not_before_);
    if (in_flight_.size() >= options_.max_in_flight)
      return milliseconds{100}; // an answer wakes the poll
    if (auto wait = pace_.try_take(now); wait.count() > 0)
      return std::chrono::ceil<milliseconds>(wait);
    auto& queue = from_retry ? retry_ : backlog_;
    auto item = std::move(queue.front());
    queue.pop_front();
    publish(std::move(item));
  }
  return milliseconds{100};
}

void consumer_loop::publish(pending_event item) {
  if (!owns(item.partition, item.epoch))
    return;
  auto event = item.event;
  publish_outcome key{item.partition, item.offset, item.epoch, {}, {}};
  in_flight_.insert_or_assign({item.partition, item.offset}, std::move(item));
  bus_->publish(std::move(event), [box = box_, key](core::publish_status status,
                                                    const std::string& error) mutable {
    key.status = status;
    key.error = error;
    box->push(std::move(key));
  });
}

void consumer_loop::settle_outcomes() {
  for (auto& o : box_->take()) {
    auto it = in_flight_.find({o.partition, o.offset});
    if (it == in_flight_.end() || it->second.epoch != o.epoch)
      continue;
    auto item = std::move(it->second);
    in_flight_.erase(it);
    if (o.status != core::publish_status::accepted &&
        o.status != core::publish_status::filtered) {
      refused(std::move(item), o);
      continue;
    }
    if (o.status == core::publish_status::accepted)
      metrics_.accepted(); // a filtered event was counted by the core's filter
    if (auto owned = owned_.find(o.partition); owned != owned_.end())
      owned->second.progress.settle(o.offset);
    backoff_ = options_.retry_initial;
    if (refusing_)
      spdlog::info("kafka {}: the bus accepts events again", name_);
    refusing_ = false;
  }
}

void consumer_loop::refused(pending_event item, const publish_outcome& o) {
  metrics_.rejected(core::to_string(o.status));
  if (!refusing_)
    spdlog::warn("kafka {}: the bus refused an event ({}{}{}); offering it again with backoff",
                 name_, core::to_string(o.status), o.error.empty() ? "" : ": ", o.error);
  refusing_ = true;
  auto now = clock::now();
  if (now >= retry_not_before_) {
    retry_not_before_ = now + backoff_;
    backoff_ = std::min(backoff_ * 2, options_.retry_max);
  }
  auto at = std::upper_bound(retry_.begin(), retry_.end(), item, [](const auto& a, const auto& b) {
    return std::pair{a.partition, a.offset} < std::pair{b.partition, b.offset};
  });
  retry_.insert(at, std::move(item));
}

void consumer_loop::commit(bool sync, bool all) {
  auto now = clock::now();
  if (!sync && now - last_commit_ < options_.commit_interval)
    return;
  last_commit_ = now;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(
    static_cast<int>(owned_.size()));
  for (auto& [partition, owned] : owned_) {
    auto point = owned.progress.commit_point();
    if (point >= 0 && (all || owned.progress.needs_commit()))
      rd_kafka_topic_partition_list_add(list, spec_.topic.c_str(), partition)->offset = point;
  }
  if (list->cnt > 0) {
    // The last commit waits a bounded time: an unreachable cluster must not hold the
    // shutdown (what it could not commit is read again at the next start).
    std::string error;
    if (sync)
      error = commit_and_wait(consumer_.get(), list, close_timeout);
    else if (auto err = rd_kafka_commit(consumer_.get(), list, 1); err)
      error = rd_kafka_err2str(err);
    if (error.empty()) {
      for (int i = 0; i < list->cnt; ++i)
        owned_[list->elems[i].partition].progress.mark_committed(list->elems[i].offset);
    } else if (sync) {
      spdlog::warn("kafka {}: cannot commit offsets of {} ({}); the records after the last "
                   "commit will be read again",
                   name_, spec_.topic, error);
    }
  }
  rd_kafka_topic_partition_list_destroy(list);
}

void consumer_loop::flow_control() {
  if (backlog_.size() >= options_.max_backlog) {
    auto now = clock::now();
    if (!full_since_)
      full_since_ = now;
    if (!paused_ && now - *full_since_ >= options_.pause_after)
      set_paused(true);
    return;
  }
  full_since_.reset();
  if (paused_ && backlog_.size() <= options_.max_backlog / 2)
    set_paused(false);
}

void consumer_loop::set_paused(bool paused) {
  rd_kafka_topic_partition_list_t* assignment = nullptr;
  if (rd_kafka_assignment(consumer_.get(), &assignment) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return;
  if (paused)
    rd_kafka_pause_partitions(consumer_.get(), assignment);
  else
    rd_kafka_resume_partitions(consumer_.get(), assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  paused_ = paused;
}

bool consumer_loop::owns(std::int32_t partition, std::uint64_t epoch) const {
  auto it = owned_.find(partition);
  return it != owned_.end() && it->second.epoch == epoch;
}

void consumer_loop::shutdown() {
  auto deadline = clock::now() + options_.stop_grace;
  while (!in_flight_.empty() && clock::now() < deadline) {
    {
      std::unique_lock lock{box_->mutex};
      box_->ready.wait_for(lock, milliseconds{20}, [&] { return !box_->items.empty(); });
    }
    settle_outcomes();
  }
  if (!in_flight_.empty())
    spdlog::warn("kafka {}: stopping with {} event(s) the bus has not answered; they will be "
                 "read again",
                 name_, in_flight_.size());
  commit(true, true);
  {
    std::lock_guard guard{box_->mutex};
    box_->wake_consumer = nullptr;
    box_->wake_main = nullptr;
  }
  close_consumer(consumer_.get());
  rd_kafka_queue_destroy(consumer_queue_);
  rd_kafka_queue_destroy(main_queue_);
  consumer_queue_ = main_queue_ = nullptr;
  consumer_.reset();
}

} // namespace ganglion::kafka::detail
