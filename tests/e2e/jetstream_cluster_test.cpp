// Three ganglion replicas on one JetStream server: sensors run on one replica each, a
// half-satisfied join survives kill -9 of its replica, and a NATS restart loses nothing
// acknowledged.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"

namespace ganglion::e2e {
namespace {

using namespace std::chrono_literals;

/// The manifests of one replica: the same for all but the webhook port.
std::string cluster_manifests(const std::string& nats_url, std::uint16_t port,
                              const std::string& sink) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  jetstreamExotic:
    url: {nats}
---
{hooks}---
apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: inbox
spec:
  nats:
    orders:
      url: {nats}
      subject: orders
{sensors})",
                     fmt::arg("sensors", join_and_each_sensors(sink)),
                     fmt::arg("nats", nats_url), fmt::arg("sink", sink),
                     fmt::arg("hooks", webhook_source("hooks", port, {"a", "b", "c"})));
}

/// The phase of component (kind, name) in a replica's /v1/status, "" when absent or down.
std::string phase_of(const engine_process& replica, const std::string& kind,
                     const std::string& name) {
  auto response = test::http_request("GET", replica.admin_url("/v1/status"));
  if (response.status != 200)
    return {};
  auto status = nlohmann::json::parse(response.body, nullptr, false);
  if (!status.is_object() || !status.contains("components"))
    return {};
  for (const auto& c : status["components"])
    if (c.value("kind", "") == kind && c.value("name", "") == name)
      return c.value("phase", "");
  return {};
}

/// The replica (index) on which component (kind, name) runs; waits until exactly one runs it.
int owner_of(std::vector<std::unique_ptr<engine_process>>& replicas, const std::string& sensor,
             std::chrono::milliseconds timeout, const std::string& kind = "sensor") {
  int owner = -1;
  auto one_runs = [&] {
    int running = 0;
    for (std::size_t i = 0; i < replicas.size(); ++i)
      if (replicas[i] && phase_of(*replicas[i], kind, sensor) == "Running") {
        owner = static_cast<int>(i);
        ++running;
      }
    return running == 1;
  };
  return test::eventually(one_runs, timeout) ? owner : -1;
}

/// POSTs {"seq":seq} to /<event> until a replica answers 200 (each try goes to the next).
void post_until_accepted(const std::vector<std::uint16_t>& ports, const std::string& event,
                         int seq) {
  for (int attempt = 0; attempt < 400; ++attempt) {
    auto port = ports[static_cast<std::size_t>(attempt) % ports.size()];
    if (post(port, event, fmt::format(R"({{"seq":{}}})", seq)).status == 200)
      return;
    std::this_thread::sleep_for(50ms); // a client's retry pace
  }
  ADD_FAILURE() << "no replica accepted " << event << " " << seq;
}

/// `field` of a trigger's payload as a number (payload values are strings, as in Argo).
int number_in(const std::string& body, const std::string& field) {
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (!json.is_object() || !json.contains(field))
    return -1;
  const auto& v = json[field];
  return v.is_string() ? std::stoi(v.get<std::string>()) : v.get<int>();
}

/// The `field` values of the sink's requests to `path`.
std::multiset<int> received(const test::http_sink& sink, const std::string& path,
                            const std::string& field) {
  std::multiset<int> out;
  for (const auto& r : sink.requests())
    if (r.target == path)
      out.insert(number_in(r.body, field));
  return out;
}

TEST(jetstream_cluster, three_replicas_fire_once_and_a_join_survives_kill_minus_nine) {
  test::nats_server nats;
  test::http_sink sink;
  std::vector<std::uint16_t> ports;
  std::vector<std::unique_ptr<engine_process>> replicas;
  for (int i = 0; i < 3; ++i) {
    ports.push_back(test::free_port());
    replicas.push_back(std::make_unique<engine_process>(
      cluster_manifests(nats.url(), ports.back(), sink.url("")), "", true,
      std::vector<std::string>{"--replica-id", fmt::format("r{}", i), "--lease-ttl", "2s"}));
  }
  auto owner = owner_of(replicas, "join", 20s);
  ASSERT_GE(owner, 0) << "no single replica runs the sensor";
  ASSERT_GE(owner_of(replicas, "each", 20s), 0);
  // An active-passive source (nats) runs on one replica; webhooks on all of them.
  ASSERT_GE(owner_of(replicas, "inbox/orders", 20s, "source"), 0);
  for (auto& replica : replicas)
    EXPECT_EQ(phase_of(*replica, "source", "hooks/a"), "Running");

  // Each satisfied condition fires once across the cluster, whichever replica got the events.
  for (int k = 1; k <= 10; ++k) {
    ASSERT_EQ(post(ports[k % 3], "a", fmt::format(R"({{"seq":{}}})", k)).status, 200);
    ASSERT_EQ(post(ports[(k + 1) % 3], "b", fmt::format(R"({{"seq":{}}})", k)).status, 200);
    ASSERT_TRUE(test::eventually(
      [&] { return received(sink, "/join", "b").size() >= std::size_t(k); }, 10s))
      << "pair " << k << " did not fire";
  }

  // Half a join on the owner, then kill -9: another replica continues it.
  auto survivor = (owner + 1) % 3;
  ASSERT_EQ(post(ports[survivor], "a", R"({"seq":100})").status, 200);
  // Kept: the owner stores its unfinished events every second, and no metric marks a store.
  std::this_thread::sleep_for(2500ms);
  replicas[owner]->process().signal(SIGKILL);
  replicas[owner]->process().wait(5s);
  auto killed_at = std::chrono::steady_clock::now();
  std::vector<std::uint16_t> alive;
  for (int i = 0; i < 3; ++i)
    if (i != owner)
      alive.push_back(ports[i]);
  post_until_accepted(alive, "b", 100);
  for (int k = 201; k <= 220; ++k)
    post_until_accepted(alive, "c", k);
  ASSERT_TRUE(test::eventually([&] { return received(sink, "/join", "b").count(100) > 0; }, 30s))
    << "the half-satisfied join did not fire after its replica died";
  auto failover = std::chrono::duration_cast<std::chrono::milliseconds>(
    std::chrono::steady_clock::now() - killed_at);
  std::printf("[ figures ] join failover after kill -9: %lld ms (lease ttl 2 s)\n",
              static_cast<long long>(failover.count()));
  ASSERT_TRUE(test::eventually(
    [&] {
      auto c = received(sink, "/each", "c");
      for (int k = 201; k <= 220; ++k)
        if (!c.count(k))
          return false;
      return true;
    },
    30s))
    << "events published during the failover did not all fire";

  // A last pair: the new owner reaches it after everything it took over, so a join fired
  // twice would be in the sink by then.
  post_until_accepted(alive, "a", 300);
  post_until_accepted(alive, "b", 300);
  ASSERT_TRUE(test::eventually([&] { return received(sink, "/join", "b").count(300) > 0; }, 30s))
    << "the last pair did not fire";
  auto joins = received(sink, "/join", "b");
  EXPECT_EQ(joins.size(), 12u) << "a satisfied condition fired more than once";
  for (const auto& r : sink.requests())
    if (r.target == "/join") {
      EXPECT_EQ(number_in(r.body, "a"), number_in(r.body, "b")) << r.body;
    }
  EXPECT_EQ(owner_of(replicas, "join", 10s) == owner, false);
}

TEST(jetstream_cluster, a_nats_restart_mid_stream_loses_no_acknowledged_event) {
  test::nats_server nats;
  test::http_sink sink;
  auto port = test::free_port();
  engine_process replica(cluster_manifests(nats.url(), port, sink.url("")), "", true,
                         {"--replica-id", "solo", "--lease-ttl", "2s"});
  ASSERT_TRUE(
    test::eventually([&] { return phase_of(replica, "sensor", "each") == "Running"; }, 20s));

  std::atomic<int> acknowledged{0};
  std::thread producer([&] {
    for (int k = 1; k <= 300; ++k) {
      post_until_accepted({port}, "c", k);
      acknowledged = k;
    }
  });
  ASSERT_TRUE(test::eventually([&] { return acknowledged >= 100; }, 30s));
  nats.stop();
  std::this_thread::sleep_for(2s); // kept: an outage that lasts
  nats.start();
  producer.join();
  ASSERT_TRUE(test::eventually(
    [&] {
      auto c = received(sink, "/each", "c");
      for (int k = 1; k <= 300; ++k)
        if (!c.count(k))
          return false;
      return true;
    },
    60s))
    << "an acknowledged event was lost across the NATS restart";
  auto log = replica.output();
  auto lines = std::count(log.begin(), log.end(), '\n');
  EXPECT_LT(lines, 200) << "the restart flooded the log:\n" << log;
}

/// The eventTimes (`2026-12-05 12:00:01 +0000 UTC`) the sink received at `path`, in seconds
/// since the epoch, with repeats.
std::multiset<long long> tick_seconds(const test::http_sink& sink, const std::string& path) {
  std::multiset<long long> out;
  for (const auto& r : sink.requests())
    if (r.target == path) {
      auto json = nlohmann::json::parse(r.body, nullptr, false);
      int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
      if (json.is_object()
          && std::sscanf(json.value("eventTime", "").c_str(), "%d-%d-%d %d:%d:%d", &y, &mo, &d,
                         &h, &mi, &sec) == 6)
        out.insert((std::chrono::sys_days{std::chrono::year{y} / mo / d} + std::chrono::hours{h}
                    + std::chrono::minutes{mi} + std::chrono::seconds{sec})
                     .time_since_epoch()
                     .count());
    }
  return out;
}

TEST(jetstream_cluster, a_calendar_ticks_on_one_replica_and_its_successor_catches_up_once) {
  test::nats_server nats;
  test::http_sink sink;
  auto manifests = fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  jetstreamExotic:
    url: {nats}
---
apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: clock
spec:
  calendar:
    tick:
      interval: 1s
      persistence:
        catchup: {{enabled: true, maxDuration: 1m}}
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: ticks
spec:
  dependencies:
    - {{name: t, eventSourceName: clock, eventName: tick}}
  triggers:
    - template:
        name: post
        http:
          url: {sink}/tick
          method: POST
          payload:
            - src: {{dependencyName: t, dataKey: eventTime}}
              dest: eventTime
      atLeastOnce: true
)",
                               fmt::arg("nats", nats.url()), fmt::arg("sink", sink.url("")));
  std::vector<std::unique_ptr<engine_process>> replicas;
  for (int i = 0; i < 2; ++i)
    replicas.push_back(std::make_unique<engine_process>(
      manifests, "", true,
      std::vector<std::string>{"--replica-id", fmt::format("r{}", i), "--lease-ttl", "2s"}));
  auto owner = owner_of(replicas, "clock/tick", 20s, "source");
  ASSERT_GE(owner, 0) << "no single replica runs the calendar";
  auto sensor_owner = owner_of(replicas, "ticks", 20s);
  ASSERT_GE(sensor_owner, 0) << "no single replica runs the sensor";
  ASSERT_TRUE(test::eventually([&] { return tick_seconds(sink, "/tick").size() >= 3; }, 20s));
  replicas[owner]->process().signal(SIGKILL);
  replicas[owner]->process().wait(5s);
  auto before = tick_seconds(sink, "/tick").size();
  // The other replica takes the calendar over and fires the ticks the dead one missed.
  ASSERT_TRUE(
    test::eventually([&] { return tick_seconds(sink, "/tick").size() >= before + 6; }, 30s))
    << replicas[1 - owner]->output();
  auto ticks = tick_seconds(sink, "/tick");
  // No tick skipped: every second from the first to the last reached the sink.
  std::set<long long> distinct(ticks.begin(), ticks.end());
  EXPECT_EQ(*distinct.rbegin() - *distinct.begin() + 1, static_cast<long long>(distinct.size()));
  // No tick fired twice. When the killed replica also ran the sensor, its atLeastOnce trigger
  // may POST an event it was sending again (the trigger's at-least-once, not the calendar's).
  if (sensor_owner != owner)
    EXPECT_EQ(ticks.size(), distinct.size()) << "a tick reached the sink twice";
  else
    EXPECT_LE(ticks.size(), distinct.size() + 1);
}

} // namespace
} // namespace ganglion::e2e
