// The conformance suite on the NATS JetStream bus: a real nats-server -js per test, replicas
// as buses with their own connection; stall() stops the server, resume() starts it again.

#include "bus_driver.hpp"
#include "ganglion/nats/jetstream_bus.hpp"
#include "nats_server.hpp"

namespace ganglion::test::bus_conformance {
namespace {

using namespace std::chrono_literals;

/// A nats-server with JetStream; every replica is a bus of its own on it.
class jetstream_driver final : public bus_driver {
public:
  std::string lacks(capability) const override { return {}; }

  std::shared_ptr<core::remote_bus> open(const std::string& replica,
                                         std::size_t window) override {
    nats::bus_spec spec;
    spec.url = server_.url();
    nats::jetstream_options options;
    options.replica_id = replica;
    options.ack_wait = 1000ms;
    options.lease_ttl = 1500ms;
    options.lease_tick = 250ms;
    options.publish_timeout = 1500ms;
    if (window > 0)
      options.max_pending_publishes = static_cast<std::int64_t>(window);
    return nats::make_jetstream_bus(spec, nullptr, options);
  }

  void stall() override { server_.stop(); }
  void resume() override { server_.start(); }

private:
  nats_server server_;
};

INSTANTIATE_TEST_SUITE_P(jetstream, bus_conformance,
                         ::testing::Values(driver_factory{
                           "jetstream", [] { return std::make_unique<jetstream_driver>(); }}),
                         driver_name);

} // namespace
} // namespace ganglion::test::bus_conformance
