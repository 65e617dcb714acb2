// A Kafka source, the Kafka bus and a Kafka trigger, end to end through the ganglion binary on
// librdkafka's mock cluster: every message read from the input topic is produced to the output
// topic, and a second replica takes over the sensor when the first one stops.

#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "kafka_broker.hpp"

namespace ganglion::e2e {
namespace {

using namespace std::chrono_literals;

std::string kafka_manifests(const std::string& bootstraps) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  kafka:
    url: {b}
    topic: bus
---
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
                     fmt::arg("b", bootstraps));
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

TEST(kafka_pipeline, every_message_of_the_input_topic_reaches_the_output_topic_once) {
  test::kafka_broker broker;
  for (auto topic : {"in", "out", "bus"})
    broker.create_topic(topic, 1);
  engine_process replica(kafka_manifests(broker.bootstraps()), "", true,
                         {"--replica-id", "k1"});
  // The sensor runs once this replica holds its shard (the mock's group join takes ~3 s).
  // Probes (n = 0) until the pipeline answers: the source reads from the newest offset, as
  // Argo's partition mode does, so what it does not read yet is not expected.
  auto deadline = std::chrono::steady_clock::now() + 30s;
  std::multiset<int> got;
  while (got.empty() && std::chrono::steady_clock::now() < deadline) {
    broker.produce("in", std::nullopt, R"({"n":0})");
    // Kept: paces the probes (one a second), each then awaited, not an outcome's wait.
    std::this_thread::sleep_for(1s);
    got = forwarded(broker);
  }
  ASSERT_FALSE(got.empty()) << "nothing reached the output topic; log:\n" << replica.output();
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

} // namespace
} // namespace ganglion::e2e
