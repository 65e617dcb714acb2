// The conformance suite on the embedded bus (embedded_remote_bus.hpp): one process, its
// durable log in a fresh directory per test; a replica restarts on the same directory.

#include "bus_driver.hpp"
#include "embedded_remote_bus.hpp"
#include "files.hpp"

namespace ganglion::test::bus_conformance {
namespace {

/// A data directory and an actor system; a replica restarts on the same directory.
class embedded_driver final : public bus_driver {
public:
  std::string lacks(capability c) const override {
    switch (c) {
      case capability::replicas:
        return "the embedded bus lives in one process: replicas do not share it";
      case capability::ownership:
        return "the embedded bus runs every sensor in its one process: nothing to divide";
      case capability::state_store:
        return "the embedded bus keeps a sensor's unfinished events in the sensor's own files "
               "under --data-dir (sensor_store), not in a store shared through the bus";
    }
    return {};
  }

  std::shared_ptr<core::remote_bus> open(const std::string&, std::size_t window) override {
    return make_embedded_remote_bus(system_, directory_, window > 0 ? window : 100000);
  }

  // The window counts events alive: those a subscription holds unacknowledged fill it.
  void stall() override {}
  void resume() override {}

private:
  std::string directory_ = test::temp_dir();
  caf::actor_system_config config_;
  caf::actor_system system_{config_};
};

INSTANTIATE_TEST_SUITE_P(embedded, bus_conformance,
                         ::testing::Values(driver_factory{
                           "embedded", [] { return std::make_unique<embedded_driver>(); }}),
                         driver_name);

} // namespace
} // namespace ganglion::test::bus_conformance
