#include "bus_choice.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "bus_plan.hpp"
#include "ganglion/dsl/duration.hpp"

namespace ganglion::app {

namespace {

std::chrono::milliseconds millis(const std::string& text, const char* flag) {
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

} // namespace

std::vector<dsl::diagnostic> bus_diagnostics(const std::vector<dsl::document>& documents,
                                             const core::bus_registry& buses) {
  return plan_bus(documents, false, buses).notes;
}

std::shared_ptr<core::remote_bus> open_bus(const std::vector<dsl::document>& documents,
                                           const run_options& options,
                                           std::shared_ptr<const core::secret_store> secrets,
                                           const core::bus_registry& buses,
                                           const core::option_values& settings,
                                           const cluster_status_of& status) {
  auto plan = plan_bus(documents, !options.bus_url.empty(), buses);
  for (const auto& n : plan.notes)
    if (n.level == dsl::severity::error)
      throw std::runtime_error(told(plan, n));
  for (const auto& n : plan.notes)
    spdlog::warn("{}", told(plan, n));
  if (!plan.kind)
    return nullptr;
  const auto& doc = *plan.document;
  const auto& bus = std::get<dsl::event_bus>(doc.body);
  if (!plan.kind->open)
    throw std::runtime_error("EventBus " + bus.metadata.name + ": spec." + bus.spec.type
                             + " has no driver to open");
  // The EventBus reads the Secrets of its own namespace.
  if (secrets)
    secrets = secrets->for_namespace(bus.metadata.namespace_);
  core::bus_open_input in{.document = doc,
                          .secrets = std::move(secrets),
                          .bus_url = options.bus_url,
                          .replica_id = options.replica_id,
                          .lease_ttl = millis(options.lease_ttl, "--lease-ttl"),
                          .cluster_status = status && doc.where.object ? status(doc) : "",
                          .options = settings};
  return plan.kind->open(in);
}

} // namespace ganglion::app
