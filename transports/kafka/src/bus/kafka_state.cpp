#include "bus/kafka_state.hpp"

#include <chrono>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/kafka_bus_admin.hpp"

namespace ganglion::kafka::detail {

namespace {

using clock = std::chrono::steady_clock;

/// The record size librdkafka accepts by default (`message.max.bytes`), less room for the key,
/// the headers and the batch framing.
constexpr std::size_t max_value = 1000000 - 8192;

/// A partition whose values exceed this is read again from its beginning at each load rather
/// than kept.
constexpr std::size_t max_cached_bytes = 64u << 20;

class store_report final : public delivery {
public:
  explicit store_report(core::store_done done) : done_(std::move(done)) {}
  void delivered(rd_kafka_resp_err_t err, const char* reason) noexcept override {
    try {
      done_(err == RD_KAFKA_RESP_ERR_NO_ERROR ? std::string() : std::string(reason));
    } catch (const std::exception& ex) {
      spdlog::error("kafka bus: a state store callback threw: {}", ex.what());
    }
  }

private:
  core::store_done done_;
};

} // namespace

kafka_state::kafka_state(std::shared_ptr<const bus_settings> settings, bus_producer& producer)
  : settings_(std::move(settings)), producer_(producer) {}

kafka_state::~kafka_state() {
  if (reader_.get() != nullptr)
    close_consumer(reader_.get());
}

std::size_t kafka_state::max_value_bytes() const {
  return max_value;
}

void kafka_state::prepare() {
  if (partitions_ > 0)
    return;
  auto timeout = settings_->options.request_timeout;
  if (admin_supported(producer_.get(), timeout))
    create_topic(producer_.get(), settings_->state_topic,
                 static_cast<int>(settings_->options.shards), {{"cleanup.policy", "compact"}},
                 timeout);
  else
    spdlog::info("kafka bus: the cluster has no admin API; topic {} is created by the broker "
                 "(not compacted)",
                 settings_->state_topic);
  auto count = partition_count(producer_.get(), settings_->state_topic, timeout);
  auto cfg = settings_->client("state");
  set_property(cfg, "group.id", settings_->state_topic + "-reader"); // never joins nor commits
  set_property(cfg, "enable.auto.commit", "false");
  set_property(cfg, "enable.partition.eof", "true");
  quiet_connection_errors(cfg); // polled only while loading
  set_property(cfg, "fetch.wait.max.ms", "10");
  reader_ = make_handle(RD_KAFKA_CONSUMER, std::move(cfg));
  rd_kafka_poll_set_consumer(reader_.get());
  cache_.assign(static_cast<std::size_t>(count), {});
  partitions_ = count;
}

std::optional<std::string> kafka_state::load(const std::string& key) {
  std::lock_guard guard{mutex_};
  prepare();
  // The producer's murmur2 partitioner puts `key` there (the partition count never changes).
  auto partition = rd_kafka_msg_partitioner_murmur2(producer_.state_topic(), key.data(),
                                                    key.size(), partitions_, nullptr, nullptr);
  catch_up(partition);
  auto& cache = cache_[static_cast<std::size_t>(partition)];
  std::optional<std::string> value;
  if (auto it = cache.values.find(key); it != cache.values.end())
    value = it->second;
  if (cache.bytes > max_cached_bytes)
    cache = partition_cache{};
  return value;
}

void kafka_state::apply(partition_cache& cache, std::string key, const void* value,
                        std::size_t size) {
  auto it = cache.values.find(key);
  if (it != cache.values.end()) {
    cache.bytes -= it->first.size() + it->second.size();
    if (value == nullptr) {
      cache.values.erase(it);
      return;
    }
    it->second.assign(static_cast<const char*>(value), size);
    cache.bytes += it->first.size() + size;
    return;
  }
  if (value == nullptr)
    return;
  cache.bytes += key.size() + size;
  cache.values.emplace(std::move(key), std::string(static_cast<const char*>(value), size));
}

void kafka_state::catch_up(int partition) {
  auto timeout = settings_->options.request_timeout;
  const auto& topic = settings_->state_topic;
  auto fail = [&](const std::string& why) {
    return std::runtime_error(
      fmt::format("kafka bus: reading state partition {}[{}]: {}", topic, partition, why));
  };
  std::int64_t low = 0, high = 0;
  auto err = rd_kafka_query_watermark_offsets(reader_.get(), topic.c_str(), partition, &low, &high,
                                              static_cast<int>(timeout.count()));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw fail(rd_kafka_err2str(err));
  auto& cache = cache_[static_cast<std::size_t>(partition)];
  if (cache.next < low || cache.next > high)
    cache = partition_cache{.next = low, .values = {}, .bytes = 0};
  if (cache.next >= high)
    return;

  auto* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), partition)->offset = cache.next;
  err = rd_kafka_assign(reader_.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw fail(rd_kafka_err2str(err));
  std::string error;
  auto deadline = clock::now() + timeout;
  bool at_end = false; // the broker said so (offsets below `high` may be compacted away)
  while (cache.next < high && !at_end && error.empty()) {
    if (clock::now() >= deadline) {
      error = "timed out";
      break;
    }
    rd_kafka_message_t* m = rd_kafka_consumer_poll(reader_.get(), 100);
    if (m == nullptr)
      continue;
    bool ours = m->partition == partition && m->offset >= cache.next;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      if (ours) {
        cache.next = m->offset;
        at_end = true;
      }
    } else if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (m->err != RD_KAFKA_RESP_ERR__TRANSPORT) // librdkafka reconnects by itself
        error = rd_kafka_message_errstr(m);
    } else if (ours) {
      if (m->key != nullptr)
        apply(cache, std::string(static_cast<const char*>(m->key), m->key_len), m->payload,
              m->len);
      cache.next = m->offset + 1;
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_assign(reader_.get(), nullptr);
  if (!error.empty()) {
    cache = partition_cache{};
    throw fail(error);
  }
}

void kafka_state::store(const std::string& key, std::string value, core::store_done done) {
  if (value.size() > max_value) {
    done(fmt::format("a value of {} bytes is larger than the state store's {}", value.size(),
                     max_value));
    return;
  }
  std::unique_ptr<delivery> report = std::make_unique<store_report>(std::move(done));
  auto err = producer_.produce(producer_.state_topic(), key, value.empty() ? nullptr : &value,
                               report);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    report->delivered(err, rd_kafka_err2str(err));
}

} // namespace ganglion::kafka::detail
