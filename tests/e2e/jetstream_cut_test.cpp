// The JetStream bus with its line to nats-server cut mid-stream: ganglion reaches the server
// through a test::tcp_proxy that drops every connection (and refuses new ones) for 10 s, then
// stalls them for 5 s, then resets them. Producers post to a webhook throughout: nothing answered 200 is lost, the
// engine publishes again within seconds of the line coming back, and it logs a bounded number
// of lines while the line is down.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "tcp_proxy.hpp"

namespace ganglion::e2e {
namespace {

using namespace std::chrono_literals;
using clock = std::chrono::steady_clock;

std::string manifests(const std::string& nats_url, std::uint16_t port, const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  jetstreamExotic:
    url: {nats}
---
{hooks}{sensor})",
                     fmt::arg("nats", nats_url),
                     fmt::arg("hooks", webhook_source("hooks", port, {"example"})),
                     fmt::arg("sensor", hook_sensor(fmt::format(R"(    - template:
        name: record
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body.seq
              dest: seq
      atLeastOnce: true
      retryStrategy:
        steps: 5
        duration: 100ms
)",
                                                                sink))));
}

/// Every `seq` the sink received.
std::map<int, int> delivered(const test::http_sink& sink) {
  std::map<int, int> out;
  for (const auto& r : sink.requests()) {
    auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (body.is_object() && body.contains("seq") && body["seq"].is_string())
      ++out[std::stoi(body["seq"].get<std::string>())];
  }
  return out;
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Posts events with increasing `seq` to the webhook, one after another, and remembers the
/// ones answered 200.
class producer {
public:
  explicit producer(std::uint16_t port) : port_(port) {
    thread_ = std::thread([this] {
      while (!stop_) {
        int seq = next_++;
        auto res = post(port_, "example", fmt::format(R"({{"seq":{}}})", seq));
        std::lock_guard guard{mutex_};
        ++statuses_[res.status];
        if (res.status == 200)
          acknowledged_.push_back(seq);
        else
          std::this_thread::sleep_for(50ms); // a producer's retry pace
      }
    });
  }
  ~producer() { finish(); }

  void finish() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
  }
  std::vector<int> acknowledged() const {
    std::lock_guard guard{mutex_};
    return acknowledged_;
  }
  std::map<int, int> statuses() const {
    std::lock_guard guard{mutex_};
    return statuses_;
  }
  /// Posts one event from the caller's thread (seq from 100000 up); true when answered 200,
  /// which then counts as acknowledged.
  bool probe() {
    int seq = 100000 + probes_++;
    auto res = post(port_, "example", fmt::format(R"({{"seq":{}}})", seq));
    std::lock_guard guard{mutex_};
    ++statuses_[res.status];
    if (res.status == 200)
      acknowledged_.push_back(seq);
    return res.status == 200;
  }
  /// Posted events answered 200 since `count` were.
  bool acknowledged_beyond(std::size_t count) const {
    std::lock_guard guard{mutex_};
    return acknowledged_.size() > count;
  }

private:
  std::uint16_t port_;
  std::atomic<bool> stop_{false};
  std::atomic<int> next_{1};
  int probes_ = 0;
  mutable std::mutex mutex_;
  std::vector<int> acknowledged_;
  std::map<int, int> statuses_;
  std::thread thread_;
};

TEST(jetstream_cut, a_dropped_a_stalled_and_a_reset_line_lose_no_acknowledged_event) {
  test::nats_server nats;
  test::tcp_proxy proxy(nats.port());
  test::http_sink sink;
  auto port = test::free_port();
  engine_process engine(manifests("nats://" + proxy.address(), port, sink.url("/record")), "", true,
                        {"--replica-id", "solo", "--lease-ttl", "2s"});
  // The first event through: the stream, the consumer and the sensor are up.
  ASSERT_TRUE(
    test::eventually([&] { return post(port, "example", R"({"seq":0})").status == 200; }, 20s))
    << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 20s)) << engine.output();

  producer load(port);
  ASSERT_TRUE(test::eventually([&] { return load.acknowledged_beyond(50); }, 20s));

  // Drop: every connection closed, new ones refused, for 10 s.
  auto before_drop = lines(engine.output());
  auto acked_before = load.acknowledged().size();
  proxy.drop();
  std::this_thread::sleep_for(10s); // kept: an outage that lasts
  auto logged_during_drop = lines(engine.output()) - before_drop;
  auto acked_during = load.acknowledged().size() - acked_before;
  proxy.restore();
  auto restored_at = clock::now();
  // Reconnection is measured by probes from this thread: a producer's request cut in flight
  // waits for its 5 s publish timeout.
  ASSERT_TRUE(test::eventually([&] { return load.probe(); }, 30s)) << engine.output();
  auto reconnect = clock::now() - restored_at;

  // Stall: connections kept, nothing forwarded, for 5 s.
  proxy.stall();
  std::this_thread::sleep_for(5s); // kept: a stall that lasts
  proxy.restore();
  auto unstalled_at = clock::now();
  ASSERT_TRUE(test::eventually([&] { return load.probe(); }, 30s)) << engine.output();
  auto resumed = clock::now() - unstalled_at;
  // Reset: every connection aborted with an RST; the client reconnects at once.
  auto acked_at_reset = load.acknowledged().size();
  proxy.reset();
  auto reset_at = clock::now();
  ASSERT_TRUE(test::eventually([&] { return load.probe(); }, 30s)) << engine.output();
  auto after_reset = clock::now() - reset_at;
  // Events after the cuts.
  ASSERT_TRUE(test::eventually([&] { return load.acknowledged_beyond(acked_at_reset + 20); }, 20s));
  load.finish();

  auto acknowledged = load.acknowledged();
  std::size_t missing = 0;
  test::eventually(
    [&] {
      auto got = delivered(sink);
      missing = 0;
      for (int s : acknowledged)
        missing += got.count(s) ? 0 : 1;
      return missing == 0;
    },
    30s);
  std::string statuses;
  for (auto [status, n] : load.statuses())
    statuses += fmt::format(" {}x{}", status, n);
  std::printf(
    "jetstream cut: %zu events acknowledged, %zu delivered, %zu lost; statuses%s; "
    "%zu acknowledged during the 10 s drop; publishing again %.2f s after the drop "
    "ended, %.2f s after the stall ended, %.2f s after a reset; %zu log line(s) during the "
    "drop\n",
    acknowledged.size(), acknowledged.size() - missing, missing, statuses.c_str(), acked_during,
    std::chrono::duration<double>(reconnect).count(),
    std::chrono::duration<double>(resumed).count(),
    std::chrono::duration<double>(after_reset).count(), logged_during_drop);
  EXPECT_EQ(missing, 0u) << engine.output();
  EXPECT_LT(reconnect, 10s);
  EXPECT_LE(logged_during_drop, 20u) << engine.output();
}

} // namespace
} // namespace ganglion::e2e
