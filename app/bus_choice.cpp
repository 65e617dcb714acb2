#include "bus_choice.hpp"

#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/dsl/duration.hpp"
#if GANGLION_WITH_KAFKA
#include "ganglion/kafka/kafka_bus.hpp"
#endif
#if GANGLION_WITH_NATS
#include "ganglion/nats/jetstream_bus.hpp"
#endif

namespace ganglion::app {

namespace {

/// The EventBus the components run on, or null when none is loaded.
const dsl::event_bus* chosen(const std::vector<dsl::document>& documents) {
  std::vector<const dsl::event_bus*> buses;
  std::set<std::string> named;
  for (const auto& doc : documents) {
    if (auto bus = std::get_if<dsl::event_bus>(&doc.body))
      buses.push_back(bus);
    else if (auto es = std::get_if<dsl::event_source>(&doc.body))
      named.insert(es->spec.event_bus_name);
    else if (auto s = std::get_if<dsl::sensor>(&doc.body))
      named.insert(s->spec.event_bus_name);
  }
  if (buses.empty())
    return nullptr;
  if (named.size() > 1)
    throw std::runtime_error(fmt::format(
      "the EventSources and Sensors name different EventBuses ({}); one process runs one bus",
      fmt::join(named, ", ")));
  auto wanted = named.empty() ? std::string{"default"} : *named.begin();
  for (const auto* bus : buses)
    if (bus->metadata.name == wanted)
      return bus;
  if (buses.size() == 1) {
    spdlog::warn("EventBus {} is the only one loaded; the components name {}, it is used for them",
                 buses.front()->metadata.name, wanted);
    return buses.front();
  }
  throw std::runtime_error("no loaded EventBus is named " + wanted
                           + ", the name the EventSources and Sensors use");
}

[[maybe_unused]] std::chrono::milliseconds millis(const std::string& text, const char* flag) {
  auto ns = dsl::parse_go_duration(text);
  if (!ns || *ns <= 0)
    throw std::runtime_error(std::string{flag} + " takes a positive Go duration (e.g. 5s)");
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds(*ns));
}

} // namespace

std::shared_ptr<core::remote_bus> open_bus(const std::vector<dsl::document>& documents,
                                           const run_options& options,
                                           std::shared_ptr<const core::secret_store> secrets) {
  const auto* bus = chosen(documents);
  if (!bus)
    return nullptr;
  const auto& spec = bus->spec;
  // The EventBus reads the Secrets of its own namespace.
  if (secrets)
    secrets = secrets->for_namespace(bus->metadata.namespace_);
  if (spec.jetstream) {
#if !GANGLION_WITH_NATS
    throw std::runtime_error("EventBus " + bus->metadata.name
                             + ": spec.jetstream needs the nats transport, which this build "
                               "leaves out (GANGLION_ENABLE_NATS=OFF)");
#else
    nats::jetstream_options js;
    js.replica_id = options.replica_id;
    if (!options.bus_url.empty())
      js.default_url = options.bus_url;
    js.lease_ttl = millis(options.lease_ttl, "--lease-ttl");
    js.lease_tick = std::max(std::chrono::milliseconds(100), js.lease_ttl / 5);
    spdlog::info("EventBus {}: NATS JetStream", bus->metadata.name);
    return nats::make_jetstream_bus(*spec.jetstream, std::move(secrets), js);
#endif
  }
  if (spec.kafka) {
#if !GANGLION_WITH_KAFKA
    throw std::runtime_error("EventBus " + bus->metadata.name
                             + ": spec.kafka needs the kafka transport, which this build leaves "
                               "out (GANGLION_ENABLE_KAFKA=OFF)");
#else
    kafka::kafka_bus_options kb;
    kb.replica_id = options.replica_id;
    kb.session_timeout = std::max(std::chrono::milliseconds(6000), millis(options.lease_ttl, "--lease-ttl"));
    kb.heartbeat_interval = std::max(std::chrono::milliseconds(100), kb.session_timeout / 6);
    for (const auto& property : options.bus_properties) {
      auto equals = property.find('=');
      if (equals == std::string::npos || equals == 0)
        throw std::runtime_error("--bus-property takes KEY=VALUE, not '" + property + "'");
      kb.properties[property.substr(0, equals)] = property.substr(equals + 1);
    }
    spdlog::info("EventBus {}: Kafka", bus->metadata.name);
    return kafka::make_kafka_bus(*spec.kafka, std::move(secrets), kb);
#endif
  }
  if (spec.type == "nats")
    throw std::runtime_error("EventBus " + bus->metadata.name
                             + ": NATS Streaming (spec.nats) is deprecated upstream and not "
                               "supported; use spec.jetstream or spec.jetstreamExotic");
  throw std::runtime_error("EventBus " + bus->metadata.name + ": spec." + spec.type
                           + " is not supported yet");
}

} // namespace ganglion::app
