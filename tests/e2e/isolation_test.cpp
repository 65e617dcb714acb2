// Isolation between sensors through the binary: a sensor whose jq transform never ends, one
// whose Lua transform never ends, one whose data filter path builds JSON geometrically and one
// whose trigger target never answers leave a sibling sensor on the same engine firing every
// event with its usual latency.

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "http_sink.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A TCP server on 127.0.0.1 that accepts connections and never answers on them.
class silent_server {
public:
  silent_server() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(fd_, 256) != 0
        || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) != 0)
      throw std::runtime_error("silent_server: cannot listen");
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd ready{fd_, POLLIN, 0};
        if (::poll(&ready, 1, 50) == 1) {
          int held = ::accept(fd_, nullptr, nullptr);
          if (held >= 0) {
            connections_.push_back(held);
            ++accepted_;
          }
        }
      }
    });
  }

  ~silent_server() {
    stop_ = true;
    thread_.join();
    for (int held : connections_)
      ::close(held);
    ::close(fd_);
  }

  /// http://127.0.0.1:<port><path>
  std::string url(const std::string& path) const {
    return fmt::format("http://127.0.0.1:{}{}", port_, path);
  }

  /// Connections accepted (and left unanswered) so far.
  int accepted() const { return accepted_; }

private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<int> connections_;
  std::thread thread_;
};

/// The sibling: every event of hooks/example to the sink, with its number.
std::string sibling(const std::string& sink_url) {
  return e2e::hook_sensor(fmt::format(R"(    - template:
        name: deliver
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body.n
              dest: n
)",
                                      sink_url),
                          "sibling");
}

/// A sensor on hooks/example whose dependency `d` has `transform` (YAML under `transform:`)
/// and a log trigger that never fires.
std::string endless_transform(const std::string& name, const std::string& transform) {
  return e2e::hook_sensor("    - template:\n        name: never\n        log: {}\n", name,
                          "      transform:\n" + transform + "\n");
}

/// A sensor on hooks/example whose data filter path doubles what it builds 40 times over: each
/// event runs it to its evaluation budget (4 MiB of built JSON).
std::string geometric_path(const std::string& name) {
  std::string path = "{a:@values,b:@values}";
  for (int i = 0; i < 39; ++i)
    path += "|{a:@values,b:@values}";
  return e2e::hook_sensor("    - template:\n        name: never\n        log: {}\n", name,
                          fmt::format("      filters:\n        data:\n          - path: '{}'\n"
                                      "            type: string\n            value: [x]\n",
                                      path));
}

/// Posts `count` events 20 ms apart and returns each one's latency, from the moment before its
/// POST to its arrival at the sink, in milliseconds, sorted.
std::vector<double> latencies(std::uint16_t port, test::http_sink& sink, int count) {
  std::map<int, std::chrono::steady_clock::time_point> sent;
  for (int n = 0; n < count; ++n) {
    sent[n] = std::chrono::steady_clock::now();
    EXPECT_EQ(e2e::post(port, "example", fmt::format(R"({{"n":{}}})", n)).status, 200);
    std::this_thread::sleep_for(20ms); // paces the events whose latency is measured
  }
  EXPECT_TRUE(sink.wait_for(static_cast<std::size_t>(count), 30s))
    << sink.requests().size() << " of " << count << " events delivered";
  std::vector<double> out;
  for (const auto& request : sink.requests()) {
    // Parameters are strings unless they say otherwise, as in Argo.
    auto n = std::stoi(nlohmann::json::parse(request.body).at("n").get<std::string>());
    out.push_back(std::chrono::duration<double, std::milli>(request.at - sent.at(n)).count());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The `percent`th percentile of `sorted`.
double percentile(const std::vector<double>& sorted, std::size_t percent) {
  return sorted.empty() ? 0 : sorted[(sorted.size() * percent - 1) / 100];
}

} // namespace

TEST(e2e_isolation, hostile_siblings_leave_a_sensor_firing_every_event_with_its_usual_latency) {
  constexpr int events = 150;
  auto port = test::free_port();
  const auto source = e2e::webhook_source("hooks", port, {"example"});
  const std::vector<std::string> args{"--shutdown-grace", "2"};

  test::http_sink alone_sink;
  std::vector<double> alone;
  {
    e2e::engine_process engine{source + sibling(alone_sink.url("/alone")), {}, true, args};
    alone = latencies(port, alone_sink, events);
  }

  silent_server silent;
  test::http_sink crowded_sink;
  std::vector<double> crowded;
  {
    e2e::engine_process engine{
      source + sibling(crowded_sink.url("/crowded"))
        + endless_transform("endless-jq", "        jq: until(false; .)")
        + endless_transform("endless-lua", "        script: while true do end")
        + geometric_path("geometric-path")
        + e2e::hook_sensor(fmt::format(R"(    - template:
        name: unanswered
        http:
          url: {}
)",
                                       silent.url("/never")),
                           "silent-target"),
      {}, true, args};
    crowded = latencies(port, crowded_sink, events);

    // The hostile siblings were at work all along.
    auto metrics = engine.metrics();
    EXPECT_NE(metrics.find(R"(ganglion_script_cut_offs_total{sensor="endless-jq",dependency="d"})"),
              std::string::npos)
      << metrics;
    EXPECT_NE(metrics.find(R"(ganglion_script_cut_offs_total{sensor="endless-lua",dependency="d"})"),
              std::string::npos);
    EXPECT_NE(
      metrics.find(R"(ganglion_script_cut_offs_total{sensor="geometric-path",dependency="d"})"),
      std::string::npos);
    EXPECT_GT(silent.accepted(), 0);
    EXPECT_TRUE(test::eventually([&] {
      auto status = nlohmann::json::parse(engine.status());
      for (const auto& c : status.at("components"))
        if (c.at("kind") == "sensor" && c.at("name") == "endless-jq")
          return c.at("phase") == "Error"
                 && c.value("lastError", "").find("cut off") != std::string::npos;
      return false;
    })) << engine.status();
  }

  ASSERT_EQ(alone.size(), static_cast<std::size_t>(events));
  ASSERT_EQ(crowded.size(), static_cast<std::size_t>(events));
  auto p50 = [](const std::vector<double>& v) { return percentile(v, 50); };
  auto p90 = [](const std::vector<double>& v) { return percentile(v, 90); };
  auto p99 = [](const std::vector<double>& v) { return percentile(v, 99); };
  std::cout << fmt::format("sibling latency p50/p90/p99: alone {:.1f}/{:.1f}/{:.1f} ms, beside the "
                           "hostile sensors {:.1f}/{:.1f}/{:.1f} ms ({} events each)\n",
                           p50(alone), p90(alone), p99(alone), p50(crowded), p90(crowded),
                           p99(crowded), events);
  // Sharing a thread with the jq sensor would add up to its budget (100 ms) to most events: the
  // median and the 90th percentile show it. The slowest 1 % is the machine's (two spinning
  // script threads on two cores, beside the other tests ctest runs at once), not the engine's.
  EXPECT_LT(p50(crowded), p50(alone) + 50) << "alone " << p50(alone);
  EXPECT_LT(p90(crowded), p90(alone) + 50) << "alone " << p90(alone);
}
