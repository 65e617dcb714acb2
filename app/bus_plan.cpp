#include "bus_plan.hpp"

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ganglion::app {

namespace {

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
void plan_type(const dsl::document& doc, bool bus_url, const core::bus_registry& buses,
               bus_plan& plan) {
  const auto& spec = std::get<dsl::event_bus>(doc.body).spec;
  auto kind = buses.find(spec.type);
  if (kind == buses.end()) {
    plan.notes.push_back(note(doc, dsl::severity::error, "spec." + spec.type,
                              "spec." + spec.type + " is not run by this build (no bus kind "
                              "registers it: its transport is left out, or ganglion does not "
                              "run it yet)"));
    return;
  }
  auto decision =
    kind->second.plan ? kind->second.plan({doc, bus_url}) : core::bus_decision{};
  switch (decision.action) {
  case core::bus_action::run:
    plan.kind = &kind->second;
    break;
  case core::bus_action::embedded:
    plan.notes.push_back(note(doc, dsl::severity::warning, decision.field, decision.message));
    break;
  case core::bus_action::refuse:
    plan.notes.push_back(note(doc, dsl::severity::error, decision.field, decision.message));
    break;
  }
}

} // namespace

bus_plan plan_bus(const std::vector<dsl::document>& documents, bool bus_url,
                  const core::bus_registry& buses) {
  bus_plan plan;
  plan.document = chosen(documents, plan);
  if (plan.document)
    plan_type(*plan.document, bus_url, buses, plan);
  return plan;
}

std::string bus_label(const dsl::document& document, const dsl::source_location& where) {
  const auto& name = std::get<dsl::event_bus>(document.body).metadata.name;
  if (where.object)
    return where.file;
  return fmt::format("EventBus {} ({}:{})", name, where.file, where.line);
}

} // namespace ganglion::app
