// The MQTT modes: a libmosquitto publisher (QoS 0) and a subscriber as a plain program writes
// them (mosquitto_loop_start: the library's own network thread calls back each message).

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <mosquitto.h>

#include "source_probe.hpp"

namespace source_bench {

namespace {

void check(int rc, const char* what) {
  if (rc != MOSQ_ERR_SUCCESS)
    throw std::runtime_error(fmt::format("{}: {}", what, mosquitto_strerror(rc)));
}

/// A connected client with its network thread running; destroyed after the thread stopped.
class client {
public:
  client(const settings& s, const char* id, void* user) {
    mosquitto_lib_init();
    mosq_ = mosquitto_new(id, true, user);
    if (mosq_ == nullptr)
      throw std::runtime_error("mosquitto_new failed");
    mosquitto_int_option(mosq_, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    address_ = split_address(s.address);
  }
  ~client() {
    mosquitto_disconnect(mosq_);
    mosquitto_loop_stop(mosq_, false);
    mosquitto_destroy(mosq_);
    mosquitto_lib_cleanup();
  }
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Connects and starts the network thread (callbacks must be set before).
  void start() {
    check(mosquitto_connect(mosq_, address_.host.c_str(), address_.port, 60), "connect");
    check(mosquitto_loop_start(mosq_), "mosquitto_loop_start");
  }
  mosquitto* get() const { return mosq_; }

private:
  mosquitto* mosq_ = nullptr;
  host_port address_;
};

/// What the subscriber's callbacks share with main.
struct subscriber {
  subscriber(const settings& s) : s(s), t(s.count) {}
  const settings& s;
  bus_bench::tally t;
  bool started = false;
  std::atomic<bool> subscribed{false};
};

/// The publisher's count of messages written to the socket.
struct publisher {
  std::atomic<std::int64_t> written{0};
};

} // namespace

int mqtt_publish(const settings& s) {
  publisher p;
  client c{s, "ganglion-bench-publisher", &p};
  mosquitto_publish_callback_set(c.get(), [](mosquitto*, void* user, int) {
    static_cast<publisher*>(user)->written.fetch_add(1);
  });
  c.start();
  pace schedule{s.rate};
  auto start = bus_bench::now_ns();
  for (std::int64_t i = 0; i < s.count; ++i) {
    schedule.wait(i);
    auto body = bus_bench::make_body(i, s.size);
    check(mosquitto_publish(c.get(), nullptr, s.name.c_str(), static_cast<int>(body.size()),
                            body.data(), 0, false),
          "publish");
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (p.written.load() < s.count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  publisher_report("mqtt-publish", p.written.load(), start);
  return p.written.load() == s.count ? 0 : 1;
}

int mqtt_consume(const settings& s) {
  subscriber sub{s};
  client c{s, "ganglion-bench-subscriber", &sub};
  mosquitto_connect_callback_set(c.get(), [](mosquitto* m, void* user, int rc) {
    auto* me = static_cast<subscriber*>(user);
    if (rc == 0)
      mosquitto_subscribe(m, nullptr, me->s.name.c_str(), 0);
  });
  mosquitto_subscribe_callback_set(c.get(), [](mosquitto*, void* user, int, int, const int*) {
    static_cast<subscriber*>(user)->subscribed = true;
  });
  mosquitto_message_callback_set(c.get(), [](mosquitto*, void* user, const mosquitto_message* msg) {
    auto* me = static_cast<subscriber*>(user);
    arrived(me->t, me->started,
            {static_cast<const char*>(msg->payload), static_cast<std::size_t>(msg->payloadlen)});
  });
  c.start();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!sub.subscribed.load()) {
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("no SUBACK within 30 s");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  say_ready();
  return finish(sub.t, s, "mqtt");
}

} // namespace source_bench
