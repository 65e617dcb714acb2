#include "bus/jetstream_subscription.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <xxhash.h>

#include "client/connection.hpp"
#include "ganglion/core/event_codec.hpp"

namespace ganglion::nats {

namespace {

/// How long one fetch waits when nothing is there (the fetch returns as soon as events are).
constexpr std::int64_t fetch_wait_ms = 500;

std::string safe(const std::string& name) {
  std::string out = name;
  for (auto& c : out)
    if (c == '.' || c == '*' || c == '>' || c == ' ' || c == '/' || c == '\\')
      c = '_';
  return out;
}

/// The consumer exists afterwards (created with DeliverPolicy New when it did not).
void ensure_consumer(jsCtx* js, const consumer_settings& settings, const std::string& name,
                     const std::string& subject) {
  jsConsumerInfo* info = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  auto s = js_GetConsumerInfo(&info, js, settings.stream.c_str(), name.c_str(), nullptr, &code);
  if (s == NATS_OK) {
    jsConsumerInfo_Destroy(info);
    return;
  }
  jsConsumerConfig config;
  jsConsumerConfig_Init(&config);
  config.Durable = name.c_str();
  config.DeliverPolicy = js_DeliverNew;
  config.AckPolicy = js_AckExplicit;
  config.AckWait = settings.ack_wait_ns;
  config.MaxAckPending = settings.max_ack_pending;
  config.FilterSubject = subject.c_str();
  config.MaxWaiting = 64;
  s = js_AddConsumer(&info, js, settings.stream.c_str(), &config, nullptr, &code);
  if (s != NATS_OK)
    throw std::runtime_error(fmt::format("cannot create the JetStream consumer {} on {}: {}",
                                         name, subject, status_text(s)));
  jsConsumerInfo_Destroy(info);
  // The name an autoscaler reads the pending count of (KEDA's nats-jetstream scaler).
  spdlog::info("jetstream bus: created the durable consumer {} of stream {} for {}", name,
               settings.stream, subject);
}

} // namespace

void ensure_consumers(jsCtx* js, const consumer_settings& settings, const std::string& sensor,
                      const std::vector<std::pair<std::string, std::string>>& sources) {
  for (const auto& [source, event] : sources)
    ensure_consumer(js, settings, consumer_name(sensor, source, event),
                    settings.stream + "." + source + "." + event);
}

std::string consumer_prefix(const std::string& sensor) {
  return safe(sensor) + "_";
}

std::string consumer_name(const std::string& sensor, const std::string& source,
                          const std::string& event) {
  auto key = sensor + '\0' + source + '\0' + event;
  return fmt::format("{}{:016x}", consumer_prefix(sensor), XXH3_64bits(key.data(), key.size()));
}

jetstream_subscription::jetstream_subscription(
  jsCtx* js, const consumer_settings& settings, const std::string& sensor,
  const std::vector<std::pair<std::string, std::string>>& sources, core::delivery_handler handler)
  : sensor_(sensor), batch_(settings.fetch_batch), handler_(std::move(handler)) {
  try {
    for (const auto& [source, event] : sources) {
      auto c = std::make_unique<consumer>();
      c->name = consumer_name(sensor, source, event);
      auto subject = settings.stream + "." + source + "." + event;
      ensure_consumer(js, settings, c->name, subject);
      jsOptions js_options;
      jsOptions_Init(&js_options);
      jsSubOptions options;
      jsSubOptions_Init(&options);
      options.Stream = settings.stream.c_str();
      options.Consumer = c->name.c_str();
      options.ManualAck = true;
      jsErrCode code = static_cast<jsErrCode>(0);
      auto s = js_PullSubscribe(&c->sub, js, subject.c_str(), c->name.c_str(), &js_options,
                                &options, &code);
      if (s != NATS_OK)
        throw std::runtime_error(fmt::format("cannot bind to the JetStream consumer {}: {}",
                                             c->name, status_text(s)));
      consumers_.push_back(std::move(c));
    }
  } catch (...) {
    for (auto& c : consumers_)
      natsSubscription_Destroy(c->sub);
    throw;
  }
  for (auto& c : consumers_)
    c->fetcher = std::thread([this, raw = c.get()] { fetch_loop(*raw); });
}

jetstream_subscription::~jetstream_subscription() {
  stopping_ = true;
  for (auto& c : consumers_)
    if (c->fetcher.joinable())
      c->fetcher.join();
  for (auto& c : consumers_)
    natsSubscription_Destroy(c->sub);
  std::lock_guard guard{mutex_};
  for (auto& [sequence, msg] : unacked_)
    natsMsg_Destroy(msg); // not acknowledged: the server delivers it again after AckWait
  unacked_.clear();
}

void jetstream_subscription::acknowledge(const std::vector<std::uint64_t>& sequences) {
  std::lock_guard guard{mutex_};
  for (auto sequence : sequences) {
    auto it = unacked_.find(sequence);
    if (it == unacked_.end())
      continue;
    natsMsg_Ack(it->second, nullptr);
    natsMsg_Destroy(it->second);
    unacked_.erase(it);
  }
}

void jetstream_subscription::fetch_loop(consumer& c) {
  bool failing = false;
  std::vector<core::event_ptr> events;
  while (!stopping_) {
    natsMsgList list{};
    jsErrCode code = static_cast<jsErrCode>(0);
    auto s = natsSubscription_Fetch(&list, c.sub, batch_, fetch_wait_ms, &code);
    if (s == NATS_TIMEOUT)
      continue;
    if (s != NATS_OK) {
      if (!failing)
        spdlog::warn("sensor {}: cannot fetch from JetStream consumer {}: {} (retrying)", sensor_,
                     c.name, status_text(s));
      failing = true;
      natsMsgList_Destroy(&list);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    if (failing)
      spdlog::info("sensor {}: fetching from JetStream consumer {} again", sensor_, c.name);
    failing = false;
    events.reserve(static_cast<std::size_t>(list.Count));
    {
      std::lock_guard guard{mutex_};
      for (int i = 0; i < list.Count; ++i) {
        natsMsg* msg = list.Msgs[i];
        list.Msgs[i] = nullptr;
        jsMsgMetaData* meta = nullptr;
        if (natsMsg_GetMetaData(&meta, msg) != NATS_OK) {
          natsMsg_Destroy(msg);
          continue;
        }
        auto sequence = meta->Sequence.Stream;
        jsMsgMetaData_Destroy(meta);
        auto e = std::make_shared<core::event>();
        std::string_view data{natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg))};
        if (!core::decode_event(data, *e)) {
          spdlog::warn("sensor {}: JetStream message {} is not a ganglion event; skipped", sensor_,
                       sequence);
          natsMsg_Ack(msg, nullptr);
          natsMsg_Destroy(msg);
          continue;
        }
        e->sequence = sequence;
        if (auto [it, fresh] = unacked_.emplace(sequence, msg); !fresh) {
          natsMsg_Destroy(it->second); // delivered again: keep the newest reply subject
          it->second = msg;
        }
        events.push_back(std::move(e));
      }
    }
    natsMsgList_Destroy(&list);
    if (!events.empty())
      handler_(std::move(events));
    events.clear();
  }
}

} // namespace ganglion::nats
