#include <spdlog/spdlog.h>

#include "ganglion/kafka/kafka_bus.hpp"
#include "ganglion/kafka/transport.hpp"

// The EventBus kind `kafka`: its spec step, how `run` opens the bus, and the bus's own option.

namespace ganglion::kafka {

namespace {

constexpr const char* bus_property = "--bus-property";

std::shared_ptr<core::remote_bus> open_kafka(const core::bus_open_input& in) {
  const auto [bus, spec] = core::bus_spec_of<bus_spec>(in.document);
  kafka_bus_options kb;
  kb.replica_id = in.replica_id;
  kb.session_timeout = std::max(std::chrono::milliseconds(6000), in.lease_ttl);
  kb.heartbeat_interval = std::max(std::chrono::milliseconds(100), kb.session_timeout / 6);
  for (const auto& property : in.options.values(bus_property)) {
    auto equals = property.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::runtime_error("--bus-property takes KEY=VALUE, not '" + property + "'");
    kb.properties[property.substr(0, equals)] = property.substr(equals + 1);
  }
  spdlog::info("EventBus {}: Kafka", bus.metadata.name);
  return make_kafka_bus(spec, in.secrets, kb);
}

} // namespace

void register_bus_kinds(core::bus_registry& buses) {
  buses["kafka"] = {bus_spec_step(), {}, &open_kafka};
}

core::command_options command_options() {
  core::command_option property;
  property.flag = bus_property;
  property.help = "KEY=VALUE: a librdkafka property for every client of a Kafka bus "
                  "(repeatable), e.g. fetch.wait.max.ms=10";
  property.repeatable = true;
  return {property};
}

} // namespace ganglion::kafka
