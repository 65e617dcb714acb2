// The conformance suite on the Kafka bus: librdkafka's mock cluster per test (topic `events`
// with 3 partitions, 16 ownership shards), replicas as buses with their own clients;
// stall() sets the broker down, resume() up again.

#include "bus_driver.hpp"
#include "ganglion/kafka/kafka_bus.hpp"
#include "kafka_broker.hpp"

namespace ganglion::test::bus_conformance {
namespace {

using namespace std::chrono_literals;

/// A mock Kafka cluster; every replica is a bus of its own on it.
class kafka_driver final : public bus_driver {
public:
  kafka_driver() {
    broker_.create_topic("events", 3);
    broker_.create_topic("events-owners", 16);
  }

  std::string lacks(capability) const override { return {}; }

  std::shared_ptr<core::remote_bus> open(const std::string& replica,
                                         std::size_t window) override {
    kafka::bus_spec spec;
    spec.url = broker_.bootstraps();
    spec.topic = "events";
    kafka::kafka_bus_options options;
    options.replica_id = replica;
    options.fetch_max_wait = 20ms;
    options.request_timeout = 5s;
    options.message_timeout = 2000ms;
    options.session_timeout = 3000ms; // the mock waits session - 1 s for members to rejoin
    options.heartbeat_interval = 500ms;
    if (window > 0)
      options.max_in_flight = window;
    return kafka::make_kafka_bus(spec, nullptr, options);
  }

  void stall() override { broker_.set_down(1); }
  void resume() override { broker_.set_up(1); }

private:
  kafka_broker broker_;
};

INSTANTIATE_TEST_SUITE_P(kafka, bus_conformance,
                         ::testing::Values(driver_factory{
                           "kafka", [] { return std::make_unique<kafka_driver>(); }}),
                         driver_name);

} // namespace
} // namespace ganglion::test::bus_conformance
