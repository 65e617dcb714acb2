// The AMQP modes: a librabbitmq loader that fills a queue through a fanout exchange, and a
// consumer as a plain program writes it (basic.qos, basic.consume, amqp_consume_message, one
// basic.ack per message), with the prefetch of ganglion's amqp source.

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <fmt/format.h>

#include "source_probe.hpp"

namespace source_bench {

namespace {

constexpr amqp_channel_t channel = 1;

amqp_bytes_t bytes(const std::string& text) {
  return amqp_bytes_t{text.size(), const_cast<char*>(text.data())};
}

void expect(const amqp_rpc_reply_t& r, const char* what) {
  if (r.reply_type == AMQP_RESPONSE_NORMAL)
    return;
  if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION)
    throw std::runtime_error(fmt::format("{}: {}", what, amqp_error_string2(r.library_error)));
  throw std::runtime_error(fmt::format("{}: the broker refused (method {:#x})", what, r.reply.id));
}

void expect_status(int status, const char* what) {
  if (status != AMQP_STATUS_OK)
    throw std::runtime_error(fmt::format("{}: {}", what, amqp_error_string2(status)));
}

/// One logged-in connection with channel 1 open; closed on destruction.
class connection {
public:
  explicit connection(const std::string& url) : text_(url) {
    amqp_connection_info info{};
    expect_status(amqp_parse_url(text_.data(), &info), "amqp_parse_url");
    conn_ = amqp_new_connection();
    auto* socket = amqp_tcp_socket_new(conn_);
    if (socket == nullptr)
      throw std::runtime_error("amqp_tcp_socket_new failed");
    expect_status(amqp_socket_open(socket, info.host, info.port), "connect");
    expect(
      amqp_login(conn_, info.vhost, 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, info.user, info.password),
      "login");
    amqp_channel_open(conn_, channel);
    expect(amqp_get_rpc_reply(conn_), "channel.open");
  }
  ~connection() {
    amqp_channel_close(conn_, channel, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn_, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn_);
  }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  amqp_connection_state_t get() const { return conn_; }

private:
  std::string text_; // amqp_parse_url points into it
  amqp_connection_state_t conn_ = nullptr;
};

/// Messages in queue `name` (a passive queue.declare).
std::uint32_t queued(connection& c, const std::string& name) {
  auto* ok = amqp_queue_declare(c.get(), channel, bytes(name), 1, 0, 0, 0, amqp_empty_table);
  expect(amqp_get_rpc_reply(c.get()), "queue.declare (passive)");
  return ok->message_count;
}

} // namespace

int amqp_load(const settings& s) {
  connection c{s.address};
  // What the bench manifest declares: a durable fanout exchange, a plain queue, the binding.
  amqp_exchange_declare(c.get(), channel, bytes(s.exchange), amqp_cstring_bytes("fanout"), 0, 1, 0,
                        0, amqp_empty_table);
  expect(amqp_get_rpc_reply(c.get()), "exchange.declare");
  amqp_queue_declare(c.get(), channel, bytes(s.name), 0, 0, 0, 0, amqp_empty_table);
  expect(amqp_get_rpc_reply(c.get()), "queue.declare");
  amqp_queue_bind(c.get(), channel, bytes(s.name), bytes(s.exchange), bytes(s.routing_key),
                  amqp_empty_table);
  expect(amqp_get_rpc_reply(c.get()), "queue.bind");
  amqp_basic_properties_t props{};
  props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG;
  props.content_type = amqp_cstring_bytes("application/json");
  props.delivery_mode = 1; // transient: the queue is not durable either
  pace schedule{s.rate};
  auto start = bus_bench::now_ns();
  for (std::int64_t i = 0; i < s.count; ++i) {
    schedule.wait(i);
    auto body = bus_bench::make_body(i, s.size);
    expect_status(amqp_basic_publish(c.get(), channel, bytes(s.exchange), bytes(s.routing_key), 0,
                                     0, &props, bytes(body)),
                  "basic.publish");
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::uint32_t in_queue = 0;
  while ((in_queue = queued(c, s.name)) < s.count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  publisher_report("amqp-load", in_queue, start);
  return in_queue == s.count ? 0 : 1;
}

int amqp_consume(const settings& s) {
  connection c{s.address};
  amqp_basic_qos(c.get(), channel, 0, static_cast<std::uint16_t>(s.prefetch), 0);
  expect(amqp_get_rpc_reply(c.get()), "basic.qos");
  amqp_basic_consume(c.get(), channel, bytes(s.name), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
  expect(amqp_get_rpc_reply(c.get()), "basic.consume");
  bus_bench::tally t{s.count};
  bool started = false;
  std::atomic<bool> done{false};
  say_ready();
  std::thread reader{[&] {
    timeval wait{0, 100'000};
    while (!done.load() && t.received() < s.count) {
      amqp_envelope_t envelope;
      amqp_maybe_release_buffers(c.get());
      auto r = amqp_consume_message(c.get(), &envelope, &wait, 0);
      if (r.reply_type != AMQP_RESPONSE_NORMAL) {
        if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION
            && r.library_error == AMQP_STATUS_TIMEOUT)
          continue;
        return; // the broker closed, or finish() gave up
      }
      arrived(t, started,
              {static_cast<const char*>(envelope.message.body.bytes), envelope.message.body.len});
      amqp_basic_ack(c.get(), channel, envelope.delivery_tag, 0);
      amqp_destroy_envelope(&envelope);
    }
  }};
  int code = finish(t, s, "amqp");
  done = true;
  reader.join();
  return code;
}

} // namespace source_bench
