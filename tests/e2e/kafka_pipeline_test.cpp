// A Kafka source, the Kafka bus and a Kafka trigger, end to end through the ganglion binary on
// librdkafka's mock cluster: every message read from the input topic is produced to the output
// topic, and a second replica takes over the sensor when the first one stops; and the replicas
// scaled 2 → 0 → 1 → 3 → 1 under traffic.

#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "kafka_broker.hpp"
#include "nats_server.hpp"

namespace ganglion::e2e {
namespace {

using namespace std::chrono_literals;

/// The EventBus spec of a Kafka bus on `bootstraps`.
std::string kafka_bus(const std::string& bootstraps) {
  return fmt::format("  kafka:\n    url: {}\n    topic: bus\n", bootstraps);
}

/// A kafka source on topic `in`, a sensor whose kafka trigger produces each message's `n` to
/// `out`, on the EventBus `bus` (its spec; default: the Kafka bus).
std::string kafka_manifests(const std::string& bootstraps, const std::string& bus = {}) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
{bus}---
apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: orders
spec:
  kafka:
    incoming:
      url: {b}
      topic: in
      partition: "0"
      jsonBody: true
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: forward
spec:
  dependencies:
    - name: order
      eventSourceName: orders
      eventName: incoming
  triggers:
    - template:
        name: produce
        kafka:
          url: {b}
          topic: out
          partitioningKey: orders
          payload:
            - src: {{dependencyName: order, dataKey: body.n}}
              dest: n
      atLeastOnce: true
)",
                     fmt::arg("b", bootstraps),
                     fmt::arg("bus", bus.empty() ? kafka_bus(bootstraps) : bus));
}

/// The `n` of every record on `out`.
std::multiset<int> forwarded(test::kafka_broker& broker) {
  std::multiset<int> out;
  for (const auto& r : broker.consume_all("out", 2s)) {
    auto json = nlohmann::json::parse(r.value.value_or(""), nullptr, false);
    if (json.is_object() && json.contains("n"))
      out.insert(json["n"].is_string() ? std::stoi(json["n"].get<std::string>())
                                       : json["n"].get<int>());
  }
  return out;
}

/// Probes (n = 0) until the pipeline answers: the sensor runs once a replica holds its shard
/// (the mock's group join takes ~3 s), and the source reads from the newest offset the first
/// time, as Argo's partition mode does, so what it does not read yet is not expected.
bool probe_until_flowing(test::kafka_broker& broker) {
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    // One probe, then up to a second for it (or an earlier one) to come out; a probe the
    // source read before it held its partition is not expected, so the next one goes.
    broker.produce("in", std::nullopt, R"({"n":0})");
    if (test::eventually([&] { return !forwarded(broker).empty(); }, 1s))
      return true;
  }
  return false;
}

void produce_orders(test::kafka_broker& broker, int first, int last) {
  for (int n = first; n <= last; ++n)
    broker.produce("in", std::nullopt, fmt::format(R"({{"n":{}}})", n));
}

TEST(kafka_pipeline, every_message_of_the_input_topic_reaches_the_output_topic_once) {
  test::kafka_broker broker;
  for (auto topic : {"in", "out", "bus"})
    broker.create_topic(topic, 1);
  engine_process replica(kafka_manifests(broker.bootstraps()), "", true,
                         {"--replica-id", "k1"});
  ASSERT_TRUE(probe_until_flowing(broker)) << "nothing reached the output topic; log:\n"
                                           << replica.output();
  std::multiset<int> got;
  for (int n = 1; n <= 50; ++n)
    broker.produce("in", std::nullopt, fmt::format(R"({{"n":{}}})", n));
  test::eventually(
    [&] {
      got = forwarded(broker);
      return got.size() >= 50 + got.count(0);
    },
    30s);
  for (int n = 1; n <= 50; ++n)
    EXPECT_EQ(got.count(n), 1u) << "message " << n;
}

/// Scales the replicas on the EventBus `bus` under traffic (issue 33, item 4): 2 → 0 (the input
/// topic keeps receiving while no replica runs) → 1 → 3 → 1, each stop graceful (SIGTERM), as a
/// Deployment's scale-down does; every message of the input topic must reach the output topic
/// exactly once. Prints the table of docs/scaling.md.
void scale_2_0_1_3_1(test::kafka_broker& broker, const std::string& bus) {
  for (auto topic : {"in", "out", "bus"})
    broker.create_topic(topic, 1);
  auto manifests = kafka_manifests(broker.bootstraps(), bus);
  auto replica = [&](int id) {
    return std::make_unique<engine_process>(
      manifests, "", true, std::vector<std::string>{"--replica-id", fmt::format("r{}", id)});
  };
  std::vector<std::unique_ptr<engine_process>> replicas;
  replicas.push_back(replica(0));
  replicas.push_back(replica(1));
  ASSERT_TRUE(probe_until_flowing(broker)) << replicas[0]->output() << replicas[1]->output();

  struct phase {
    std::string what;
    int first;
    int last;
  };
  std::vector<phase> phases{{"2 replicas", 1, 50},
                            {"0 replicas (scaled down, broker keeps the input)", 51, 100},
                            {"0 → 1, then 1 → 3 during the traffic", 101, 150},
                            {"3 → 1 during the traffic", 151, 200}};
  produce_orders(broker, phases[0].first, phases[0].last);
  for (auto& r : replicas)
    r->stop(); // 2 → 0
  produce_orders(broker, phases[1].first, phases[1].last);
  replicas[0]->start(); // 0 → 1
  {
    std::thread traffic([&] { produce_orders(broker, phases[2].first, phases[2].last); });
    replicas[1]->start(); // 1 → 3
    replicas.push_back(replica(2));
    traffic.join();
  }
  {
    std::thread traffic([&] { produce_orders(broker, phases[3].first, phases[3].last); });
    replicas[1]->stop(); // 3 → 1
    replicas[2]->stop();
    traffic.join();
  }
  std::multiset<int> got;
  test::eventually(
    [&] {
      got = forwarded(broker);
      for (int n = 1; n <= 200; ++n)
        if (!got.count(n))
          return false;
      return true;
    },
    60s);
  std::printf("| phase (%s) | produced | forwarded | lost | repeated |\n",
              bus.find("jetstream") != std::string::npos ? "JetStream" : "Kafka");
  for (const auto& p : phases) {
    int lost = 0;
    int repeated = 0;
    for (int n = p.first; n <= p.last; ++n) {
      lost += got.count(n) == 0 ? 1 : 0;
      repeated += got.count(n) > 1 ? 1 : 0;
      EXPECT_EQ(got.count(n), 1u) << "message " << n << " (" << p.what << ")";
    }
    std::printf("| %s | %d | %d | %d | %d |\n", p.what.c_str(), p.last - p.first + 1,
                p.last - p.first + 1 - lost, lost, repeated);
  }
}

TEST(e2e_scale, kafka_bus_replicas_2_0_1_3_1_forward_every_message_once) {
  test::kafka_broker broker;
  scale_2_0_1_3_1(broker, kafka_bus(broker.bootstraps()));
}

// The same on a JetStream bus (the input stays a Kafka topic: a pull source whose broker keeps
// what arrives while no replica runs).
TEST(e2e_scale, jetstream_bus_replicas_2_0_1_3_1_forward_every_message_once) {
  test::nats_server nats;
  test::kafka_broker broker;
  scale_2_0_1_3_1(broker, fmt::format("  jetstreamExotic:\n    url: {}\n", nats.url()));
}

} // namespace
} // namespace ganglion::e2e
