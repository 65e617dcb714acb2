// Scaling to zero and back in the one-port mode (issue 33, item 4), as Knative does it: ganglion
// on $PORT with the in-memory bus takes webhook traffic, gets SIGTERM in the middle of it (a
// scale-down), and is started again on the same port (a scale-up). Every event the webhook
// accepted (answered 200) fires exactly once; a request that reaches no replica is refused
// (connection refused or 503), never accepted and lost.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A webhook `orders/placed` and a sensor whose HTTP trigger posts each order's `seq` to `sink`.
std::string write_manifests(const test::http_sink& sink) {
  auto dir = test::temp_dir() + "/manifests";
  std::filesystem::create_directories(dir);
  test::write_file(dir + "/orders.yaml", fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {{name: orders}}
spec:
  webhook:
    placed: {{port: "12000", endpoint: /order, method: POST}}
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata: {{name: ship}}
spec:
  dependencies:
    - {{name: order, eventSourceName: orders, eventName: placed}}
  triggers:
    - template:
        name: notify
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: order, dataKey: body.seq}}
              dest: seq
)",
                                                     sink.url("/shipped")));
  return dir;
}

/// Posts orders 0, 1, 2 … one after another and records how each was answered. After a request
/// that reached nobody it waits until the test says a replica runs again.
class order_sender {
public:
  explicit order_sender(std::uint16_t port) : port_(port) {}
  ~order_sender() { stop(); }

  void start() {
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    {
      std::lock_guard guard{mutex_};
      stopping_ = true;
      changed_.notify_all();
    }
    if (thread_.joinable())
      thread_.join();
  }
  /// A replica listens again: sending goes on.
  void resume() {
    std::lock_guard guard{mutex_};
    waiting_ = false;
    changed_.notify_all();
  }
  std::size_t accepted_count() {
    std::lock_guard guard{mutex_};
    return accepted_.size();
  }
  std::size_t sent() {
    std::lock_guard guard{mutex_};
    return next_;
  }
  bool waiting() {
    std::lock_guard guard{mutex_};
    return waiting_;
  }
  std::set<int> accepted() {
    std::lock_guard guard{mutex_};
    return accepted_;
  }
  /// Answers other than 200, by status (0: no connection).
  std::map<int, int> refused() {
    std::lock_guard guard{mutex_};
    return refused_;
  }

private:
  void run() {
    for (;;) {
      int seq = 0;
      {
        std::unique_lock lock{mutex_};
        changed_.wait(lock, [this] { return stopping_ || !waiting_; });
        if (stopping_)
          return;
        seq = next_++;
      }
      auto answer = test::http_request(
        "POST", fmt::format("http://127.0.0.1:{}/order", port_), fmt::format(R"({{"seq":{}}})", seq),
        {"Content-Type: application/json"});
      std::lock_guard guard{mutex_};
      if (answer.status == 200) {
        accepted_.insert(seq);
        continue;
      }
      ++refused_[answer.status];
      if (answer.status == 0)
        waiting_ = true; // nobody listens: wait for the next replica
    }
  }

  std::uint16_t port_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  bool waiting_ = false;
  int next_ = 0;
  std::set<int> accepted_;
  std::map<int, int> refused_;
  std::thread thread_;
};

} // namespace

TEST(e2e_scale, port_mode_scaled_to_zero_mid_traffic_and_back_fires_every_accepted_event_once) {
  test::http_sink sink;
  auto manifests = write_manifests(sink);
  auto port = test::free_port();
  auto replica = [&] {
    return std::make_unique<test::child_process>(
      std::vector<std::string>{GANGLION_BINARY, "run", "-f", manifests, "--in-memory",
                               "--no-watch", "--shutdown-grace", "20"},
      std::vector<std::pair<std::string, std::string>>{{"PORT", std::to_string(port)}});
  };
  auto ready = fmt::format("http://127.0.0.1:{}/ready", port);

  auto first = replica();
  ASSERT_TRUE(test::wait_http_ok(ready, 20s)) << first->output();
  order_sender sender{port};
  sender.start();
  ASSERT_TRUE(test::eventually([&] { return sender.accepted_count() >= 200; }, 30s));
  // Scale to zero in the middle of the traffic.
  auto down_at = std::chrono::steady_clock::now();
  first->signal(SIGTERM);
  ASSERT_EQ(first->wait(30s), 0) << first->output();
  auto scale_down = std::chrono::steady_clock::now() - down_at;
  ASSERT_TRUE(test::eventually([&] { return sender.waiting(); }, 10s))
    << "a request must reach nobody once the replica is gone";
  auto accepted_before = sender.accepted_count();
  // Scale back up on the same port.
  auto second = replica();
  ASSERT_TRUE(test::wait_http_ok(ready, 20s)) << second->output();
  sender.resume();
  ASSERT_TRUE(
    test::eventually([&] { return sender.accepted_count() >= accepted_before + 200; }, 30s));
  sender.stop();
  auto accepted = sender.accepted();
  ASSERT_TRUE(sink.wait_for(accepted.size(), 30s)) << sink.requests().size() << " of "
                                                   << accepted.size() << " fired";
  // A graceful stop finishes what it accepted: after it, nothing more can fire.
  second->signal(SIGTERM);
  ASSERT_EQ(second->wait(30s), 0) << second->output();

  std::map<int, int> fired;
  for (const auto& request : sink.requests()) {
    // Argo's payload puts the value of body.seq as a string: {"seq":"17"}.
    auto seq = nlohmann::json::parse(request.body).at("seq");
    ++fired[seq.is_string() ? std::stoi(seq.get<std::string>()) : seq.get<int>()];
  }
  int lost = 0;
  int repeated = 0;
  int unanswered = 0;
  for (int seq : accepted) {
    auto it = fired.find(seq);
    lost += it == fired.end() ? 1 : 0;
    repeated += it != fired.end() && it->second > 1 ? 1 : 0;
  }
  for (const auto& [seq, times] : fired)
    unanswered += accepted.count(seq) ? 0 : 1;
  auto refused = sender.refused();
  for (const auto& [status, count] : refused)
    if (status != 0 && status != 503)
      ADD_FAILURE() << count << " answer(s) " << status << ": only 200, 503 or no connection";
  std::printf("scale 1 -> 0 -> 1 on $PORT (in memory): sent %zu, accepted %zu, refused 503 %d, "
              "unreachable %d, fired %zu, lost %d, repeated %d, fired without a 200 %d; "
              "SIGTERM to exit %.2f s\n",
              sender.sent(), accepted.size(), refused[503], refused[0], fired.size(), lost,
              repeated, unanswered,
              std::chrono::duration<double>(scale_down).count());
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(repeated, 0);
  // A graceful stop answers every request it accepted: no event fires that was not answered 200.
  EXPECT_EQ(unanswered, 0);
  EXPECT_GT(refused[0], 0) << "the scale-down left a moment when no replica listened";
  // The overlay's terminationGracePeriodSeconds is 30; --shutdown-grace 20.
  EXPECT_LT(scale_down, 20s);
}
