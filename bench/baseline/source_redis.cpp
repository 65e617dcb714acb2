// The Redis modes with hiredis: Pub/Sub (a pipelined PUBLISH loop and a SUBSCRIBE reader) and a
// stream (a pipelined XADD loader and an XREADGROUP + XACK reader in Argo's group and consumer,
// with the COUNT of ganglion's redisStream source).

#include <sys/socket.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include "source_probe.hpp"

namespace source_bench {

namespace {

constexpr const char* group = "argo-events-cg";        // Argo's default consumer group
constexpr const char* consumer = "argo-events-worker"; // and consumer
constexpr std::int64_t pipeline = 1000; // commands sent before their replies are read

struct context_deleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
struct reply_deleter {
  void operator()(void* r) const { freeReplyObject(r); }
};
using context_ptr = std::unique_ptr<redisContext, context_deleter>;
using reply_ptr = std::unique_ptr<redisReply, reply_deleter>;

context_ptr connect(const settings& s) {
  auto at = split_address(s.address);
  context_ptr c{redisConnect(at.host.c_str(), at.port)};
  if (!c || c->err)
    throw std::runtime_error(fmt::format("connect to {}: {}", s.address, c ? c->errstr : "?"));
  return c;
}

/// The next reply; throws when the connection failed.
reply_ptr next_reply(redisContext* c, const char* what) {
  void* r = nullptr;
  if (redisGetReply(c, &r) != REDIS_OK)
    throw std::runtime_error(fmt::format("{}: {}", what, c->errstr));
  return reply_ptr{static_cast<redisReply*>(r)};
}

/// Reads the replies of `n` pipelined commands; throws on an error reply.
void read_replies(redisContext* c, std::int64_t n, const char* what) {
  for (std::int64_t i = 0; i < n; ++i) {
    auto r = next_reply(c, what);
    if (r->type == REDIS_REPLY_ERROR)
      throw std::runtime_error(fmt::format("{}: {}", what, r->str));
  }
}

/// Sends s.count commands `format` (two %b: s.name, then the body of message i) in pipelines of
/// `pipeline`, paced at s.rate; prints the publisher's report as `mode`.
int send_all(redisContext* c, const settings& s, const char* format, const char* mode) {
  pace schedule{s.rate};
  auto start = bus_bench::now_ns();
  std::int64_t unread = 0;
  for (std::int64_t i = 0; i < s.count; ++i) {
    schedule.wait(i);
    auto body = bus_bench::make_body(i, s.size);
    redisAppendCommand(c, format, s.name.data(), s.name.size(), body.data(), body.size());
    if (++unread == pipeline || (s.rate > 0 && i % 64 == 63)) {
      read_replies(c, unread, mode); // paced: flushed often, so that the rate is steady
      unread = 0;
    }
  }
  read_replies(c, unread, mode);
  publisher_report(mode, s.count, start);
  return 0;
}

/// Runs `read` on its own thread until it returns or finish() is done; returns finish's code.
int consume_on_thread(bus_bench::tally& t, const settings& s, const char* mode, redisContext* c,
                      const std::function<void(const std::atomic<bool>&)>& read) {
  std::atomic<bool> done{false};
  std::thread reader{[&] {
    try {
      read(done);
    } catch (const std::exception& e) {
      if (!done.load())
        std::fprintf(stderr, "%s: %s\n", mode, e.what());
    }
  }};
  int code = finish(t, s, mode);
  done = true;
  ::shutdown(c->fd, SHUT_RDWR); // wakes a blocked read
  reader.join();
  return code;
}

} // namespace

int redis_publish(const settings& s) {
  auto c = connect(s);
  return send_all(c.get(), s, "PUBLISH %b %b", "redis-publish");
}

int redis_consume(const settings& s) {
  auto c = connect(s);
  reply_ptr r{
    static_cast<redisReply*>(redisCommand(c.get(), "SUBSCRIBE %b", s.name.data(), s.name.size()))};
  if (!r || r->type != REDIS_REPLY_ARRAY)
    throw std::runtime_error("SUBSCRIBE failed");
  bus_bench::tally t{s.count};
  bool started = false;
  say_ready();
  return consume_on_thread(t, s, "redis", c.get(), [&](const std::atomic<bool>& done) {
    while (!done.load() && t.received() < s.count) {
      auto m = next_reply(c.get(), "reading messages");
      if (m->type == REDIS_REPLY_ARRAY && m->elements == 3
          && std::string_view{m->element[0]->str, m->element[0]->len} == "message")
        arrived(t, started, {m->element[2]->str, m->element[2]->len});
    }
  });
}

int stream_load(const settings& s) {
  auto c = connect(s);
  reply_ptr r{static_cast<redisReply*>(
    redisCommand(c.get(), "XGROUP CREATE %b %s 0 MKSTREAM", s.name.data(), s.name.size(), group))};
  if (!r || (r->type == REDIS_REPLY_ERROR && std::string_view{r->str}.rfind("BUSYGROUP", 0)))
    throw std::runtime_error(fmt::format("XGROUP CREATE: {}", r ? r->str : c->errstr));
  return send_all(c.get(), s, "XADD %b * body %b", "redis-stream-load");
}

int stream_consume(const settings& s) {
  auto c = connect(s);
  bus_bench::tally t{s.count};
  bool started = false;
  say_ready();
  auto count = std::to_string(s.batch);
  return consume_on_thread(t, s, "redis-stream", c.get(), [&](const std::atomic<bool>& done) {
    while (!done.load() && t.received() < s.count) {
      const char* argv[] = {"XREADGROUP", "GROUP",        group,   consumer,
                            "COUNT",      count.c_str(),  "BLOCK", "2000",
                            "STREAMS",    s.name.c_str(), ">"};
      reply_ptr r{
        static_cast<redisReply*>(redisCommandArgv(c.get(), std::size(argv), argv, nullptr))};
      if (!r)
        throw std::runtime_error(fmt::format("XREADGROUP: {}", c->errstr));
      if (r->type == REDIS_REPLY_ERROR)
        throw std::runtime_error(fmt::format("XREADGROUP: {}", r->str));
      if (r->type != REDIS_REPLY_ARRAY || r->elements == 0)
        continue; // nil: nothing within BLOCK
      const auto* entries = r->element[0]->element[1];
      std::vector<std::string> ack{"XACK", s.name, group};
      for (std::size_t i = 0; i < entries->elements; ++i) {
        const auto* entry = entries->element[i];
        ack.emplace_back(entry->element[0]->str, entry->element[0]->len);
        const auto* fields = entry->element[1];
        for (std::size_t f = 0; f + 1 < fields->elements; f += 2)
          if (std::string_view{fields->element[f]->str, fields->element[f]->len} == "body")
            arrived(t, started, {fields->element[f + 1]->str, fields->element[f + 1]->len});
      }
      std::vector<const char*> args;
      std::vector<std::size_t> lengths;
      for (const auto& a : ack) {
        args.push_back(a.data());
        lengths.push_back(a.size());
      }
      reply_ptr acked{static_cast<redisReply*>(
        redisCommandArgv(c.get(), static_cast<int>(args.size()), args.data(), lengths.data()))};
      if (!acked || acked->type == REDIS_REPLY_ERROR)
        throw std::runtime_error("XACK failed");
    }
  });
}

} // namespace source_bench
