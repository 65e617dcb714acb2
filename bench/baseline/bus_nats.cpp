// The NATS modes: raw JetStream (async publish + durable pull consumer) and the core NATS
// pipeline generator that drives ganglion's nats source → JetStream bus → nats trigger.

#include <atomic>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nats/nats.h>

#include "bus_probe.hpp"

namespace bus_bench {

namespace {

using namespace std::chrono_literals;

void check(natsStatus s, const char* what, jsErrCode code = static_cast<jsErrCode>(0)) {
  if (s != NATS_OK)
    throw std::runtime_error(fmt::format("{}: {} (JetStream error {}; {})", what,
                                         natsStatus_GetText(s), static_cast<int>(code),
                                         nats_GetLastError(nullptr)));
}

struct connection_deleter {
  void operator()(natsConnection* nc) const { natsConnection_Destroy(nc); }
};
struct js_deleter {
  void operator()(jsCtx* js) const { jsCtx_Destroy(js); }
};
struct sub_deleter {
  void operator()(natsSubscription* sub) const { natsSubscription_Destroy(sub); }
};
using connection_ptr = std::unique_ptr<natsConnection, connection_deleter>;
using js_ptr = std::unique_ptr<jsCtx, js_deleter>;
using sub_ptr = std::unique_ptr<natsSubscription, sub_deleter>;

connection_ptr connect(const std::string& url, const char* name) {
  natsOptions* opts = nullptr;
  check(natsOptions_Create(&opts), "natsOptions_Create");
  natsOptions_SetURL(opts, url.c_str());
  natsOptions_SetName(opts, name);
  natsOptions_SetMaxPendingMsgs(opts, 1 << 20);
  natsConnection* nc = nullptr;
  auto s = natsConnection_Connect(&nc, opts);
  natsOptions_Destroy(opts);
  check(s, fmt::format("connect to {}", url).c_str());
  return connection_ptr{nc};
}

std::atomic<std::int64_t> publish_errors{0};

void on_publish_error(jsCtx*, jsPubAckErr*, void*) { publish_errors.fetch_add(1); }

/// A JetStream context with async publishing limited to 4096 awaiting their PubAck.
js_ptr jetstream(natsConnection* nc) {
  jsOptions opts;
  jsOptions_Init(&opts);
  opts.PublishAsync.MaxPending = 4096;
  opts.PublishAsync.ErrHandler = on_publish_error;
  opts.PublishAsync.StallWait = 1000;
  jsCtx* js = nullptr;
  check(natsConnection_JetStream(&js, nc, &opts), "natsConnection_JetStream");
  return js_ptr{js};
}

/// Creates stream `name` (file storage, subject `<name>.events`), replacing an older one.
void create_stream(jsCtx* js, const std::string& name, const std::string& subject) {
  js_DeleteStream(js, name.c_str(), nullptr, nullptr);
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = name.c_str();
  const char* subjects[] = {subject.c_str()};
  config.Subjects = subjects;
  config.SubjectsLen = 1;
  config.Storage = js_FileStorage;
  jsStreamInfo* info = nullptr;
  jsErrCode code{};
  check(js_AddStream(&info, js, &config, nullptr, &code), "js_AddStream", code);
  jsStreamInfo_Destroy(info);
}

/// Fetches batches of 512 and acknowledges each message until `stop`.
void consume(natsSubscription* sub, tally& t, const std::atomic<bool>& stop) {
  while (!stop.load()) {
    natsMsgList list{};
    jsErrCode code{};
    auto s = natsSubscription_Fetch(&list, sub, 512, 200, &code);
    if (s == NATS_TIMEOUT)
      continue;
    if (s != NATS_OK) {
      std::fprintf(stderr, "fetch: %s\n", natsStatus_GetText(s));
      std::this_thread::sleep_for(50ms);
      continue;
    }
    for (int i = 0; i < list.Count; ++i) {
      natsMsg* msg = list.Msgs[i];
      t.arrived({natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg))});
      natsMsg_Ack(msg, nullptr);
    }
    natsMsgList_Destroy(&list);
  }
}

void on_out(natsConnection*, natsSubscription*, natsMsg* msg, void* closure) {
  static_cast<tally*>(closure)->arrived(
    {natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg))});
  natsMsg_Destroy(msg);
}

} // namespace

int run_jetstream(const settings& s) {
  auto producer = connect(s.url, "bench-raw-producer");
  auto consumer = connect(s.url, "bench-raw-consumer");
  auto js = jetstream(producer.get());
  auto cjs = jetstream(consumer.get());
  auto subject = s.topic + ".events";
  create_stream(js.get(), s.topic, subject);

  jsSubOptions sub_opts;
  jsSubOptions_Init(&sub_opts);
  sub_opts.Config.AckPolicy = js_AckExplicit;
  sub_opts.Config.MaxAckPending = 8192;
  natsSubscription* raw_sub = nullptr;
  jsErrCode code{};
  check(js_PullSubscribe(&raw_sub, cjs.get(), subject.c_str(), "bench-raw", nullptr, &sub_opts,
                         &code),
        "js_PullSubscribe", code);
  sub_ptr sub{raw_sub};

  tally t{s.count};
  std::atomic<bool> stop{false};
  std::thread reader{[&] { consume(sub.get(), t, stop); }};
  auto publish = [&](std::int64_t seq) {
    auto body = make_body(seq, s.size);
    natsStatus st;
    while ((st = js_PublishAsync(js.get(), subject.c_str(), body.data(),
                                 static_cast<int>(body.size()), nullptr)) == NATS_TIMEOUT) {
    }
    if (st != NATS_OK && publish_errors.fetch_add(1) == 0)
      std::fprintf(stderr, "js_PublishAsync: %s\n", natsStatus_GetText(st));
  };
  try {
    warm_up(t, s, subject, [&] { publish(-1); });
  } catch (...) {
    stop = true;
    reader.join();
    throw;
  }
  t.start();
  std::int64_t stopped = 0;
  for (std::int64_t seq = 0; seq < s.count; ++seq) {
    if (s.window > 0 && !t.wait_room(seq, s.window, s.idle)) {
      stopped = s.count - seq;
      break;
    }
    publish(seq);
  }
  jsPubOptions complete;
  jsPubOptions_Init(&complete);
  complete.MaxWait = 30000;
  js_PublishAsyncComplete(js.get(), &complete);
  t.wait_all(s.idle);
  stop = true;
  reader.join();
  std::printf("%s\n", t.report("jetstream", publish_errors.load() + stopped).c_str());
  sub.reset();
  js_DeleteStream(js.get(), s.topic.c_str(), nullptr, nullptr);
  return t.received() == s.count ? 0 : 1;
}

int run_nats_pipeline(const settings& s) {
  auto publisher = connect(s.url, "bench-pipeline-in");
  auto listener = connect(s.url, "bench-pipeline-out");
  tally t{s.count};
  natsSubscription* raw_sub = nullptr;
  check(natsConnection_Subscribe(&raw_sub, listener.get(), s.out.c_str(), on_out, &t),
        "subscribe");
  sub_ptr sub{raw_sub};
  natsSubscription_SetPendingLimits(sub.get(), -1, -1);
  check(natsConnection_FlushTimeout(listener.get(), 5000), "flush the subscription");

  warm_up(t, s, s.out, [&] {
    auto body = make_body(-1, s.size);
    natsConnection_Publish(publisher.get(), s.in.c_str(), body.data(),
                           static_cast<int>(body.size()));
    natsConnection_FlushTimeout(publisher.get(), 1000);
  });

  std::int64_t errors = 0;
  t.start();
  for (std::int64_t seq = 0; seq < s.count; ++seq) {
    if (s.window > 0 && !t.wait_room(seq, s.window, s.idle)) {
      std::fprintf(stderr, "nothing came back for %lld ms: stopped after %lld events\n",
                   static_cast<long long>(s.idle.count()), static_cast<long long>(seq));
      errors += s.count - seq;
      break;
    }
    auto body = make_body(seq, s.size);
    if (natsConnection_Publish(publisher.get(), s.in.c_str(), body.data(),
                               static_cast<int>(body.size())) != NATS_OK)
      ++errors;
  }
  natsConnection_FlushTimeout(publisher.get(), 10000);
  t.wait_all(s.idle);
  std::printf("%s\n", t.report("nats-pipeline", errors).c_str());
  natsSubscription_Unsubscribe(sub.get());
  return t.received() == s.count ? 0 : 1;
}

} // namespace bus_bench
