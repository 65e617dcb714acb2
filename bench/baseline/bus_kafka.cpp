// The Kafka modes: raw librdkafka (idempotent producer + a consumer assigned to the topic)
// and the pipeline generator that drives ganglion's kafka source → Kafka bus → kafka trigger.

#include <atomic>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>
#include <librdkafka/rdkafka.h>

#include "bus_probe.hpp"

namespace bus_bench {

namespace {

using namespace std::chrono_literals;

struct kafka_deleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using kafka_ptr = std::unique_ptr<rd_kafka_t, kafka_deleter>;

std::atomic<std::int64_t> delivery_errors{0};

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && delivery_errors.fetch_add(1) == 0)
    std::fprintf(stderr, "delivery failed: %s\n", rd_kafka_err2str(m->err));
}

void set(rd_kafka_conf_t* conf, const char* key, const std::string& value) {
  char error[512];
  if (rd_kafka_conf_set(conf, key, value.c_str(), error, sizeof error) != RD_KAFKA_CONF_OK)
    throw std::runtime_error(fmt::format("{}={}: {}", key, value, error));
}

kafka_ptr make_client(rd_kafka_type_t type, rd_kafka_conf_t* conf) {
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(type, conf, error, sizeof error);
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(fmt::format("rd_kafka_new: {}", error));
  }
  return kafka_ptr{rk};
}

/// Idempotent producer, acks=all, linger 5 ms (what the Kafka trigger and bus use).
kafka_ptr make_producer(const std::string& bootstrap) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", bootstrap);
  set(conf, "enable.idempotence", "true");
  set(conf, "acks", "all");
  set(conf, "linger.ms", "5");
  set(conf, "log_level", "3");
  rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  return make_client(RD_KAFKA_PRODUCER, conf);
}

/// The partition count of `topic`, waiting up to 10 s for the cluster to know it.
int partitions_of(rd_kafka_t* rk, const std::string& topic) {
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (true) {
    rd_kafka_topic_t* handle = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
    const rd_kafka_metadata_t* md = nullptr;
    int count = 0;
    if (rd_kafka_metadata(rk, 0, handle, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (md->topic_cnt == 1 && md->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR)
        count = md->topics[0].partition_cnt;
      rd_kafka_metadata_destroy(md);
    }
    rd_kafka_topic_destroy(handle);
    if (count > 0)
      return count;
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error(fmt::format("topic {} has no partitions on the cluster", topic));
    std::this_thread::sleep_for(100ms);
  }
}

/// A consumer assigned to every partition of `topic` from its end (what earlier runs left there
/// is not this run's; the warm-up shows when it is positioned). librdkafka wants a group id
/// even then; assign() never joins it, so the mock cluster's 3 s group join is not paid.
kafka_ptr make_consumer(const std::string& bootstrap, const std::string& topic) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", bootstrap);
  set(conf, "group.id", fmt::format("ganglion-bus-baseline-{}", getpid()));
  set(conf, "enable.auto.commit", "false");
  set(conf, "enable.auto.offset.store", "false");
  set(conf, "fetch.wait.max.ms", "10");
  set(conf, "log_level", "3");
  auto rk = make_client(RD_KAFKA_CONSUMER, conf);
  rd_kafka_poll_set_consumer(rk.get());
  int n = partitions_of(rk.get(), topic);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(n);
  for (int p = 0; p < n; ++p)
    rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_END;
  auto err = rd_kafka_assign(rk.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error(fmt::format("assign {}: {}", topic, rd_kafka_err2str(err)));
  return rk;
}

/// Polls until `stop` or every event arrived.
void consume(rd_kafka_t* rk, tally& t, std::int64_t count, const std::atomic<bool>& stop) {
  while (!stop.load() && t.received() < count) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (m == nullptr)
      continue;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
      t.arrived({static_cast<const char*>(m->payload), m->len});
    rd_kafka_message_destroy(m);
  }
}

/// Produces one body, waiting while the producer's queue is full.
void produce(rd_kafka_t* rk, const std::string& topic, const std::string& body) {
  while (true) {
    auto err = rd_kafka_producev(
      rk, RD_KAFKA_V_TOPIC(topic.c_str()),
      RD_KAFKA_V_VALUE(const_cast<char*>(body.data()), body.size()),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
      break;
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      delivery_errors.fetch_add(1);
      std::fprintf(stderr, "produce: %s\n", rd_kafka_err2str(err));
      return;
    }
    rd_kafka_poll(rk, 10);
  }
  rd_kafka_poll(rk, 0);
}

/// Sends the measured events (within the window), waits for them and prints the report.
int measure(const settings& s, rd_kafka_t* producer, const std::string& topic, tally& t,
            const char* mode) {
  t.start();
  std::int64_t stopped = 0;
  for (std::int64_t seq = 0; seq < s.count; ++seq) {
    if (s.window > 0 && !t.wait_room(seq, s.window, s.idle)) {
      stopped = s.count - seq;
      std::fprintf(stderr, "nothing came back for %lld ms: stopped after %lld events\n",
                   static_cast<long long>(s.idle.count()), static_cast<long long>(seq));
      break;
    }
    produce(producer, topic, make_body(seq, s.size));
  }
  rd_kafka_flush(producer, 30000);
  t.wait_all(s.idle);
  std::printf("%s\n", t.report(mode, delivery_errors.load() + stopped).c_str());
  return t.received() == s.count ? 0 : 1;
}

/// Produces to `in`, consumes `out`: warm-up events until one came back (the consumer is
/// positioned, ganglion's pipeline runs), then the measured ones.
int run(const settings& s, const std::string& in, const std::string& out, const char* mode) {
  auto producer = make_producer(s.url);
  auto consumer = make_consumer(s.url, out);
  tally t{s.count};
  std::atomic<bool> stop{false};
  std::thread reader{[&] { consume(consumer.get(), t, s.count, stop); }};
  int status = 1;
  try {
    warm_up(t, s, out, [&] { produce(producer.get(), in, make_body(-1, s.size)); });
    status = measure(s, producer.get(), in, t, mode);
  } catch (...) {
    stop = true;
    reader.join();
    throw;
  }
  stop = true;
  reader.join();
  rd_kafka_consumer_close(consumer.get());
  return status;
}

} // namespace

int run_kafka(const settings& s) { return run(s, s.topic, s.topic, "kafka"); }

int run_kafka_pipeline(const settings& s) { return run(s, s.in, s.out, "kafka-pipeline"); }

} // namespace bus_bench
