#include "bus_plan.hpp"

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace ganglion::app {

namespace {

constexpr const char* embedded_instead =
  "run uses the embedded bus instead (its durable log under --data-dir, as with no EventBus)";

dsl::diagnostic note(const dsl::document& doc, dsl::severity level, const std::string& path,
                     std::string message) {
  dsl::diagnostic d;
  d.level = level;
  d.where = doc.locate(path);
  if (d.where.file.empty())
    d.where = doc.where;
  d.path = path;
  d.message = std::move(message);
  return d;
}

/// The EventBus document the components use; null, with an error in `plan`, when none can be.
const dsl::document* chosen(const std::vector<dsl::document>& documents, bus_plan& plan) {
  std::vector<const dsl::document*> buses;
  std::set<std::string> named;
  for (const auto& doc : documents) {
    if (std::holds_alternative<dsl::event_bus>(doc.body))
      buses.push_back(&doc);
    else if (auto es = std::get_if<dsl::event_source>(&doc.body))
      named.insert(es->spec.event_bus_name);
    else if (auto s = std::get_if<dsl::sensor>(&doc.body))
      named.insert(s->spec.event_bus_name);
  }
  if (buses.empty())
    return nullptr;
  const auto& first = *buses.front();
  if (named.size() > 1) {
    plan.notes.push_back(
      note(first, dsl::severity::error, "metadata.name",
           fmt::format("the EventSources and Sensors name different EventBuses ({}); one process "
                       "runs one bus",
                       fmt::join(named, ", "))));
    return nullptr;
  }
  auto wanted = named.empty() ? std::string{"default"} : *named.begin();
  for (const auto* doc : buses)
    if (std::get<dsl::event_bus>(doc->body).metadata.name == wanted)
      return doc;
  if (buses.size() > 1) {
    plan.notes.push_back(note(first, dsl::severity::error, "metadata.name",
                              "no loaded EventBus is named " + wanted
                                + ", the name the EventSources and Sensors use"));
    return nullptr;
  }
  plan.notes.push_back(note(first, dsl::severity::warning, "metadata.name",
                            "this is the only EventBus loaded; the components name " + wanted
                              + ", it is used for them"));
  return &first;
}

/// The plan of the EventBus of `doc`: its kind, or the embedded bus and a warning, or an error.
void plan_type(const dsl::document& doc, bool bus_url, bus_plan& plan) {
  const auto& spec = std::get<dsl::event_bus>(doc.body).spec;
  auto warn = [&](const std::string& path, const std::string& message) {
    plan.notes.push_back(note(doc, dsl::severity::warning, path, message));
  };
  auto refuse = [&](const std::string& path, const std::string& message) {
    plan.notes.push_back(note(doc, dsl::severity::error, path, message));
  };
  if (spec.type == "jetstreamExotic") {
    plan.kind = bus_kind::jetstream;
  } else if (spec.type == "jetstream") {
    if (doc.where.object || bus_url)
      plan.kind = bus_kind::jetstream;
    else
      warn("spec.jetstream",
           fmt::format("a file does not say where the JetStream server Argo's controller "
                       "deploys runs: without --bus-url, {}; --bus-url nats://HOST:4222 names "
                       "a JetStream server (run --from-cluster reaches the one Argo deployed "
                       "for an EventBus of the cluster)",
                       embedded_instead));
  } else if (spec.type == "kafka") {
    plan.kind = bus_kind::kafka;
  } else if (spec.type == "nats") {
    auto nats = nlohmann::json::parse(spec.json, nullptr, false);
    if (nats.is_object() && nats.contains("exotic"))
      refuse("spec.nats",
             "NATS Streaming (exotic) is deprecated upstream and ganglion does not speak its "
             "protocol, so run refuses this EventBus: give one with spec.jetstreamExotic (a "
             "JetStream server's url) or spec.kafka, or none for the embedded bus");
    else
      warn("spec.nats",
           fmt::format("NATS Streaming (native, which Argo's controller deploys) is deprecated "
                       "upstream and not run: {}; for a remote bus, give an EventBus with "
                       "spec.jetstreamExotic (a JetStream server's url) or spec.kafka",
                       embedded_instead));
  } else {
    refuse("spec." + spec.type, "spec." + spec.type + " is not supported yet");
  }
#if !GANGLION_WITH_NATS
  if (plan.kind == bus_kind::jetstream)
    refuse("spec." + spec.type, "a JetStream bus needs the nats transport, which this build "
                                "leaves out (GANGLION_ENABLE_NATS=OFF)");
#endif
#if !GANGLION_WITH_KAFKA
  if (plan.kind == bus_kind::kafka)
    refuse("spec.kafka", "spec.kafka needs the kafka transport, which this build leaves out "
                         "(GANGLION_ENABLE_KAFKA=OFF)");
#endif
}

} // namespace

bus_plan plan_bus(const std::vector<dsl::document>& documents, bool bus_url) {
  bus_plan plan;
  plan.document = chosen(documents, plan);
  if (plan.document)
    plan_type(*plan.document, bus_url, plan);
  return plan;
}

std::string bus_label(const dsl::document& document, const dsl::source_location& where) {
  const auto& name = std::get<dsl::event_bus>(document.body).metadata.name;
  if (where.object)
    return where.file;
  return fmt::format("EventBus {} ({}:{})", name, where.file, where.line);
}

} // namespace ganglion::app
