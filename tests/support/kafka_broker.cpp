#include "kafka_broker.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

namespace ganglion::test {

namespace {

using handle_ptr = std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)>;

rd_kafka_conf_t* new_conf(const std::vector<std::pair<const char*, std::string>>& props) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  for (const auto& [name, value] : props)
    if (rd_kafka_conf_set(conf, name, value.c_str(), error, sizeof error) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw std::runtime_error(std::string("kafka_broker: ") + name + ": " + error);
    }
  return conf;
}

handle_ptr new_handle(rd_kafka_type_t type, rd_kafka_conf_t* conf) {
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(type, conf, error, sizeof error);
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(std::string("kafka_broker: cannot create a client: ") + error);
  }
  return handle_ptr{rk, &rd_kafka_destroy};
}

/// Delivery outcome of one synchronous produce.
struct delivery {
  rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR__IN_PROGRESS;
  std::int64_t offset = -1;
};

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
  auto* d = static_cast<delivery*>(m->_private);
  d->error = m->err;
  d->offset = m->offset;
}

std::optional<std::string> bytes(const void* data, std::size_t size) {
  if (data == nullptr)
    return std::nullopt;
  return std::string(static_cast<const char*>(data), size);
}

kafka_record to_record(const rd_kafka_message_t* m) {
  kafka_record r;
  r.topic = rd_kafka_topic_name(m->rkt);
  r.partition = m->partition;
  r.offset = m->offset;
  r.key = bytes(m->key, m->key_len);
  r.value = bytes(m->payload, m->len);
  r.timestamp_ms = rd_kafka_message_timestamp(m, nullptr);
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name = nullptr;
    const void* value = nullptr;
    std::size_t size = 0;
    for (std::size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) ==
                            RD_KAFKA_RESP_ERR_NO_ERROR;
         ++i)
      r.headers.emplace_back(name, value ? std::string(static_cast<const char*>(value), size)
                                         : std::string{});
  }
  return r;
}

int partition_count(rd_kafka_t* rk, const std::string& topic, std::chrono::milliseconds timeout) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  const rd_kafka_metadata_t* md = nullptr;
  auto err = rd_kafka_metadata(rk, 0, rkt, &md, static_cast<int>(timeout.count()));
  rd_kafka_topic_destroy(rkt);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("kafka_broker: no metadata for " + topic + ": " +
                             rd_kafka_err2str(err));
  int count = md->topic_cnt == 1 && md->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR
                ? md->topics[0].partition_cnt
                : 0;
  rd_kafka_metadata_destroy(md);
  return count;
}

} // namespace

struct kafka_broker::impl {
  handle_ptr owner{nullptr, &rd_kafka_destroy};
  rd_kafka_mock_cluster_t* cluster = nullptr;
  std::string bootstraps;
  std::mutex producer_mutex;
  handle_ptr producer{nullptr, &rd_kafka_destroy};

  ~impl() {
    producer.reset();
    owner.reset(); // destroys the cluster it owns
  }

  rd_kafka_t* producer_handle() {
    if (!producer) {
      auto* conf = new_conf({{"bootstrap.servers", bootstraps},
                             {"linger.ms", "0"},
                             {"log_level", "2"}, // tests take brokers down on purpose
                             {"message.timeout.ms", "10000"}});
      rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
      producer = new_handle(RD_KAFKA_PRODUCER, conf);
    }
    return producer.get();
  }
};

kafka_broker::kafka_broker(int brokers) : impl_(std::make_unique<impl>()) {
  // A cluster made by test.mock.num.brokers belongs to its handle and goes with it at once;
  // rd_kafka_mock_cluster_destroy() of one made by rd_kafka_mock_cluster_new() takes a second.
  impl_->owner = new_handle(RD_KAFKA_PRODUCER,
                            new_conf({{"test.mock.num.brokers", std::to_string(brokers)},
                                      {"log_level", "3"}}));
  impl_->cluster = rd_kafka_handle_mock_cluster(impl_->owner.get());
  if (impl_->cluster == nullptr)
    throw std::runtime_error("kafka_broker: cannot create the mock cluster");
  impl_->bootstraps = rd_kafka_mock_cluster_bootstraps(impl_->cluster);
}

kafka_broker::~kafka_broker() = default;

std::string kafka_broker::bootstraps() const {
  return impl_->bootstraps;
}

void kafka_broker::create_topic(const std::string& name, int partitions) {
  auto err = rd_kafka_mock_topic_create(impl_->cluster, name.c_str(), partitions, 1);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("kafka_broker: cannot create topic " + name + ": " +
                             rd_kafka_err2str(err));
}

std::int64_t kafka_broker::produce(const std::string& topic,
                                   const std::optional<std::string>& key,
                                   const std::optional<std::string>& value,
                                   const std::vector<std::pair<std::string, std::string>>& headers,
                                   std::int32_t partition, std::int64_t timestamp_ms) {
  std::lock_guard guard{impl_->producer_mutex};
  rd_kafka_t* rk = impl_->producer_handle();
  rd_kafka_headers_t* hdrs = rd_kafka_headers_new(headers.size());
  for (const auto& [name, v] : headers)
    rd_kafka_header_add(hdrs, name.data(), static_cast<ssize_t>(name.size()), v.data(),
                        static_cast<ssize_t>(v.size()));
  delivery d;
  std::int32_t target = partition < 0 ? RD_KAFKA_PARTITION_UA : partition;
  auto err = rd_kafka_producev(
    rk, RD_KAFKA_V_TOPIC(topic.c_str()),
    RD_KAFKA_V_PARTITION(target),
    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
    RD_KAFKA_V_KEY((key ? key->data() : nullptr), (key ? key->size() : 0)),
    RD_KAFKA_V_VALUE((value ? const_cast<char*>(value->data()) : nullptr),
                     (value ? value->size() : 0)),
    RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_TIMESTAMP(timestamp_ms), RD_KAFKA_V_OPAQUE(&d),
    RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_headers_destroy(hdrs);
    throw std::runtime_error("kafka_broker: cannot produce to " + topic + ": " +
                             rd_kafka_err2str(err));
  }
  while (d.error == RD_KAFKA_RESP_ERR__IN_PROGRESS)
    rd_kafka_poll(rk, 100);
  if (d.error != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("kafka_broker: delivery to " + topic + " failed: " +
                             rd_kafka_err2str(d.error));
  return d.offset;
}

std::vector<kafka_record> kafka_broker::consume_all(const std::string& topic,
                                                    std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto* conf = new_conf({{"bootstrap.servers", impl_->bootstraps},
                         {"group.id", "kafka-broker-reader"},
                         {"enable.auto.commit", "false"},
                         {"enable.partition.eof", "true"},
                         {"fetch.wait.max.ms", "10"},
                         {"log_level", "3"}});
  auto consumer = new_handle(RD_KAFKA_CONSUMER, conf);
  int partitions = partition_count(consumer.get(), topic, timeout);
  if (partitions == 0)
    return {};
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p)
    rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_assign(consumer.get(), list);
  rd_kafka_topic_partition_list_destroy(list);

  std::vector<kafka_record> out;
  std::vector<bool> at_end(static_cast<std::size_t>(partitions), false);
  while (std::count(at_end.begin(), at_end.end(), true) < partitions &&
         std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer.get(), 100);
    if (m == nullptr)
      continue;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF)
      at_end[static_cast<std::size_t>(m->partition)] = true;
    else if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
      out.push_back(to_record(m));
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(consumer.get());
  std::stable_sort(out.begin(), out.end(), [](const kafka_record& a, const kafka_record& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.offset < b.offset;
  });
  return out;
}

std::int64_t kafka_broker::committed(const std::string& group, const std::string& topic,
                                     std::int32_t partition, std::chrono::milliseconds timeout) {
  auto* conf = new_conf({{"bootstrap.servers", impl_->bootstraps},
                         {"group.id", group},
                         {"enable.auto.commit", "false"},
                         {"log_level", "3"}});
  auto consumer = new_handle(RD_KAFKA_CONSUMER, conf);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), partition);
  auto err = rd_kafka_committed(consumer.get(), list, static_cast<int>(timeout.count()));
  std::int64_t offset = list->elems[0].offset;
  auto partition_err = list->elems[0].err;
  rd_kafka_topic_partition_list_destroy(list);
  rd_kafka_consumer_close(consumer.get());
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR || partition_err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("kafka_broker: cannot read the committed offset of " + group + ": " +
                             rd_kafka_err2str(err ? err : partition_err));
  return offset < 0 ? -1 : offset;
}

void kafka_broker::set_down(std::int32_t id) {
  rd_kafka_mock_broker_set_down(impl_->cluster, id);
}

void kafka_broker::set_up(std::int32_t id) {
  rd_kafka_mock_broker_set_up(impl_->cluster, id);
}

} // namespace ganglion::test
