#include "trigger/trigger_producer.hpp"

#include <fmt/format.h>

namespace ganglion::kafka::detail {

namespace {

/// How long a stopping trigger waits for messages still in flight.
constexpr int drain_ms = 2000;

} // namespace

trigger_producer::trigger_producer(client_config cfg) {
  cfg.hooks->user = this;
  rd_kafka_conf_set_dr_msg_cb(cfg.conf.get(), on_delivery);
  producer_ = make_handle(RD_KAFKA_PRODUCER, std::move(cfg));
  poller_ = std::thread([this] {
    while (!stopping_)
      rd_kafka_poll(producer_.get(), 100);
  });
}

trigger_producer::~trigger_producer() {
  stopping_ = true;
  poller_.join();
  rd_kafka_flush(producer_.get(), drain_ms);
  rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_flush(producer_.get(), 500);
  producer_.reset();
  // Reports librdkafka never served (destroyed with the handle).
  std::set<pending*> left;
  {
    std::lock_guard guard{mutex_};
    left.swap(pending_);
  }
  for (auto* p : left) {
    p->done(core::trigger_outcome{false, "the kafka trigger stopped before the delivery", {}});
    delete p;
  }
}

void trigger_producer::send(const message& m, core::trigger_done done) {
  auto* p = new pending{std::move(done), m.fields.topic};
  {
    std::lock_guard guard{mutex_};
    pending_.insert(p);
  }
  rd_kafka_headers_t* headers = rd_kafka_headers_new(m.headers.size());
  for (const auto& [name, value] : m.headers)
    rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()), value.data(),
                        static_cast<ssize_t>(value.size()));
  const auto& key = m.fields.key;
  std::int32_t partition = m.fields.partition.value_or(RD_KAFKA_PARTITION_UA);
  auto err = rd_kafka_producev(
    producer_.get(), RD_KAFKA_V_TOPIC(m.fields.topic.c_str()),
    RD_KAFKA_V_PARTITION(partition),
    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
    RD_KAFKA_V_KEY(key.empty() ? nullptr : key.data(), key.size()),
    RD_KAFKA_V_VALUE(const_cast<char*>(m.payload.data()), m.payload.size()),
    RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(p), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_headers_destroy(headers); // not taken over on failure
    finish(p, core::trigger_outcome{
                false, fmt::format("cannot produce to {}: {}", m.fields.topic,
                                   rd_kafka_err2str(err)),
                {}});
  }
}

void trigger_producer::on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  auto* self = static_cast<trigger_producer*>(user_of(opaque));
  auto* p = static_cast<pending*>(m->_private);
  if (self == nullptr || p == nullptr)
    return;
  if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
    self->finish(p, core::trigger_outcome{
                      true, {}, fmt::format("{}[{}]@{}", p->topic, m->partition, m->offset)});
  else
    self->finish(p, core::trigger_outcome{false,
                                          fmt::format("delivery to {} failed: {}", p->topic,
                                                      rd_kafka_err2str(m->err)),
                                          {}});
}

void trigger_producer::finish(pending* p, core::trigger_outcome outcome) {
  {
    std::lock_guard guard{mutex_};
    if (pending_.erase(p) == 0)
      return;
  }
  p->done(std::move(outcome));
  delete p;
}

} // namespace ganglion::kafka::detail
