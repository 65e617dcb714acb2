#include "bus_choice.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "bus_plan.hpp"
#include "ganglion/dsl/duration.hpp"
#if GANGLION_WITH_KAFKA
#include "ganglion/kafka/kafka_bus.hpp"
#endif
#if GANGLION_WITH_KUBERNETES
#include "ganglion/kubernetes/cluster_bus.hpp"
#endif
#if GANGLION_WITH_NATS
#include "ganglion/nats/jetstream_bus.hpp"
#endif

namespace ganglion::app {

namespace {

[[maybe_unused]] std::chrono::milliseconds millis(const std::string& text, const char* flag) {
  auto ns = dsl::parse_go_duration(text);
  if (!ns || *ns <= 0)
    throw std::runtime_error(std::string{flag} + " takes a positive Go duration (e.g. 5s)");
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds(*ns));
}

/// A note of the plan as run logs it: `EventBus default (a.yaml:5): spec.nats: …`.
std::string told(const bus_plan& plan, const dsl::diagnostic& note) {
  if (!plan.document)
    return note.message;
  return fmt::format("{}: {}: {}", bus_label(*plan.document, note.where), note.path, note.message);
}

#if GANGLION_WITH_NATS
std::shared_ptr<core::remote_bus> open_jetstream(const dsl::document& doc,
                                                 const run_options& options,
                                                 std::shared_ptr<const core::secret_store> secrets,
                                                 [[maybe_unused]] const cluster_status_of& status) {
  const auto& bus = std::get<dsl::event_bus>(doc.body);
  nats::jetstream_options js;
  js.replica_id = options.replica_id;
  if (!options.bus_url.empty())
    js.default_url = options.bus_url;
  js.lease_ttl = millis(options.lease_ttl, "--lease-ttl");
  js.lease_tick = std::max(std::chrono::milliseconds(100), js.lease_ttl / 5);
  auto spec = *bus.spec.jetstream;
  bool managed = bus.spec.type == "jetstream" && options.bus_url.empty() && doc.where.object;
#if GANGLION_WITH_KUBERNETES
  if (managed) {
    spec = kubernetes::argo_managed_jetstream(bus, status ? status(doc) : std::string{"{}"});
    spdlog::info("{}: NATS JetStream that Argo's controller deployed, at {} (Secret {} key {}, "
                 "TLS verified with Secret {} key {})",
                 doc.where.file, spec.url, spec.access_secret->name, spec.access_secret->key,
                 spec.tls->ca_cert_secret->name, spec.tls->ca_cert_secret->key);
  }
#endif
  if (!managed)
    spdlog::info("EventBus {}: NATS JetStream", bus.metadata.name);
  try {
    return nats::make_jetstream_bus(spec, std::move(secrets), js);
  } catch (const std::exception& ex) {
    if (!managed)
      throw;
    throw std::runtime_error(fmt::format("{}: the JetStream server Argo's controller deployed "
                                         "(--bus-url names another): {}",
                                         doc.where.file, ex.what()));
  }
}
#endif

#if GANGLION_WITH_KAFKA
std::shared_ptr<core::remote_bus> open_kafka(const dsl::event_bus& bus, const run_options& options,
                                             std::shared_ptr<const core::secret_store> secrets) {
  kafka::kafka_bus_options kb;
  kb.replica_id = options.replica_id;
  kb.session_timeout =
    std::max(std::chrono::milliseconds(6000), millis(options.lease_ttl, "--lease-ttl"));
  kb.heartbeat_interval = std::max(std::chrono::milliseconds(100), kb.session_timeout / 6);
  for (const auto& property : options.bus_properties) {
    auto equals = property.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::runtime_error("--bus-property takes KEY=VALUE, not '" + property + "'");
    kb.properties[property.substr(0, equals)] = property.substr(equals + 1);
  }
  spdlog::info("EventBus {}: Kafka", bus.metadata.name);
  return kafka::make_kafka_bus(*bus.spec.kafka, std::move(secrets), kb);
}
#endif

} // namespace

std::vector<dsl::diagnostic> bus_diagnostics(const std::vector<dsl::document>& documents) {
  return plan_bus(documents, false).notes;
}

std::shared_ptr<core::remote_bus> open_bus(const std::vector<dsl::document>& documents,
                                           const run_options& options,
                                           std::shared_ptr<const core::secret_store> secrets,
                                           [[maybe_unused]] const cluster_status_of& status) {
  auto plan = plan_bus(documents, !options.bus_url.empty());
  for (const auto& n : plan.notes)
    if (n.level == dsl::severity::error)
      throw std::runtime_error(told(plan, n));
  for (const auto& n : plan.notes)
    spdlog::warn("{}", told(plan, n));
  if (plan.kind == bus_kind::embedded)
    return nullptr;
  const auto& bus = std::get<dsl::event_bus>(plan.document->body);
  // The EventBus reads the Secrets of its own namespace.
  if (secrets)
    secrets = secrets->for_namespace(bus.metadata.namespace_);
#if GANGLION_WITH_NATS
  if (plan.kind == bus_kind::jetstream)
    return open_jetstream(*plan.document, options, std::move(secrets), status);
#endif
#if GANGLION_WITH_KAFKA
  if (plan.kind == bus_kind::kafka)
    return open_kafka(bus, options, std::move(secrets));
#endif
  throw std::runtime_error("EventBus " + bus.metadata.name + ": spec." + bus.spec.type
                           + " needs a transport this build leaves out");
}

} // namespace ganglion::app
