#include "bus/kafka_bus_producer.hpp"

#include <spdlog/spdlog.h>

namespace ganglion::kafka::detail {

namespace {

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  std::unique_ptr<delivery> report{static_cast<delivery*>(message->_private)};
  if (!report)
    return;
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    report->delivered(message->err, rd_kafka_err2str(message->err));
    return;
  }
  report->delivered(RD_KAFKA_RESP_ERR_NO_ERROR, "");
}

rd_kafka_topic_t* new_topic(rd_kafka_t* rk, const std::string& name, const char* partitioner) {
  // A copy of the client's topic defaults: a fresh topic conf would drop message.timeout.ms.
  rd_kafka_topic_conf_t* conf = rd_kafka_default_topic_conf_dup(rk);
  char error[256];
  if (partitioner != nullptr &&
      rd_kafka_topic_conf_set(conf, "partitioner", partitioner, error, sizeof error) !=
        RD_KAFKA_CONF_OK) {
    rd_kafka_topic_conf_destroy(conf);
    throw config_error(std::string("kafka bus: partitioner: ") + error);
  }
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, name.c_str(), conf); // takes conf
  if (rkt == nullptr)
    throw config_error("kafka bus: topic " + name + ": " +
                       rd_kafka_err2str(rd_kafka_last_error()));
  return rkt;
}

} // namespace

bool is_purged(rd_kafka_resp_err_t err) noexcept {
  return err == RD_KAFKA_RESP_ERR__PURGE_QUEUE || err == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT;
}

bus_producer::bus_producer(const bus_settings& settings) {
  auto cfg = settings.client("producer");
  set_property(cfg, "enable.idempotence", "true");
  set_property(cfg, "acks", "all");
  set_property(cfg, "linger.ms", "1");
  set_property(cfg, "queue.buffering.max.messages",
               std::to_string(settings.options.max_in_flight));
  set_property(cfg, "message.timeout.ms", ms(settings.options.message_timeout));
  rd_kafka_conf_set_dr_msg_cb(cfg.conf.get(), on_delivery);
  handle_ = make_handle(RD_KAFKA_PRODUCER, std::move(cfg));
  try {
    events_ = new_topic(handle_.get(), settings.topic, nullptr);
    state_ = new_topic(handle_.get(), settings.state_topic, "murmur2");
  } catch (...) {
    if (events_ != nullptr)
      rd_kafka_topic_destroy(events_);
    throw;
  }
  poller_ = std::thread([this] { poll_loop(); });
}

bus_producer::~bus_producer() {
  drain(std::chrono::milliseconds(0));
  stop_ = true;
  poller_.join();
  rd_kafka_topic_destroy(events_);
  rd_kafka_topic_destroy(state_);
}

void bus_producer::poll_loop() {
  while (!stop_.load(std::memory_order_relaxed))
    rd_kafka_poll(handle_.get(), 100);
}

rd_kafka_resp_err_t bus_producer::produce(rd_kafka_topic_t* topic, std::string_view key,
                                          const std::string* value,
                                          std::unique_ptr<delivery>& report) {
  void* payload = value ? const_cast<char*>(value->data()) : nullptr;
  std::size_t size = value ? value->size() : 0;
  int rc = rd_kafka_produce(topic, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, payload, size,
                            key.data(), key.size(), report.get());
  if (rc != 0)
    return rd_kafka_last_error();
  report.release(); // on_delivery owns it now
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

void bus_producer::drain(std::chrono::milliseconds grace) {
  rd_kafka_t* rk = handle_.get();
  if (grace.count() > 0)
    rd_kafka_flush(rk, static_cast<int>(grace.count()));
  if (rd_kafka_outq_len(rk) == 0)
    return;
  rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  if (rd_kafka_flush(rk, 1000) != RD_KAFKA_RESP_ERR_NO_ERROR)
    spdlog::warn("kafka eventbus: {} message(s) still unreported after the purge",
                 rd_kafka_outq_len(rk));
}

} // namespace ganglion::kafka::detail
