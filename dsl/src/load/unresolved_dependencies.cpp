#include "ganglion/dsl/dependencies.hpp"

#include <string_view>
#include <variant>

#include "ganglion/dsl/model.hpp"
#include "yaml/closest_name.hpp"

namespace ganglion::dsl {

namespace {

/// ` did you mean "x"?` when a name of `known` is close to `name`; empty otherwise.
std::string suggestion(const std::string& name, const std::set<std::string_view>& known) {
  auto near = detail::closest_name(name, std::vector<std::string_view>(known.begin(), known.end()));
  return near ? "; did you mean \"" + *near + "\"?" : std::string{};
}

diagnostic warning_at(const document& doc, std::string path, std::string message) {
  diagnostic d;
  d.level = severity::warning;
  d.where = doc.locate(path);
  if (d.where.file.empty())
    d.where.file = doc.where.file;
  d.path = std::move(path);
  d.message = std::move(message);
  return d;
}

/// The EventSource name of a provided key when a Sensor of `sensor_namespace` can reach it
/// (an EventSource and a Sensor of two different namespaces never meet), else empty.
std::string_view reachable(std::string_view key, std::string_view sensor_namespace) {
  auto slash = key.rfind('/');
  if (slash == std::string_view::npos)
    return key;
  if (sensor_namespace.empty() || key.substr(0, slash) == sensor_namespace)
    return key.substr(slash + 1);
  return {};
}

} // namespace

provided_events events_provided(const std::vector<document>& documents) {
  provided_events out;
  for (const auto& doc : documents)
    if (const auto* es = std::get_if<event_source>(&doc.body))
      for (const auto& e : es->spec.events)
        out.emplace(es->metadata.namespaced_name(), e.name);
  return out;
}

std::vector<diagnostic> unresolved_dependencies(const document& doc,
                                                const provided_events& provided) {
  std::vector<diagnostic> out;
  const auto* s = std::get_if<sensor>(&doc.body);
  if (!s)
    return out;
  const auto& deps = s->spec.dependencies;
  for (std::size_t i = 0; i < deps.size(); ++i) {
    const auto& dep = deps[i];
    // A missing name is already an error of the sensor's own rules.
    if (dep.event_source_name.empty() || dep.event_name.empty())
      continue;
    // Most dependencies resolve: looked up directly, without the scan below (which collects
    // the names a suggestion picks from, and finds a namespaced EventSource for a Sensor of
    // no namespace).
    if (provided.count({dep.event_source_name, dep.event_name})
        || (!s->metadata.namespace_.empty()
            && provided.count({s->metadata.namespace_ + "/" + dep.event_source_name,
                               dep.event_name})))
      continue;
    std::set<std::string_view> sources;
    std::set<std::string_view> events;
    bool found = false;
    for (const auto& [key, event] : provided) {
      auto source = reachable(key, s->metadata.namespace_);
      if (source.empty())
        continue;
      sources.insert(source);
      if (source == dep.event_source_name) {
        events.insert(event);
        found = found || event == dep.event_name;
      }
    }
    if (found)
      continue;
    auto at = yaml_item_path("spec.dependencies", i);
    if (events.empty())
      out.push_back(warning_at(
        doc, yaml_child_path(at, "eventSourceName"),
        "no loaded EventSource"
          + (s->metadata.namespace_.empty() ? std::string{}
                                            : " of namespace " + s->metadata.namespace_)
          + " is named \"" + dep.event_source_name + "\""
          + suggestion(dep.event_source_name, sources)
          + " (a warning even with --strict: it may be defined in files not loaded here or in "
            "the cluster)"));
    else
      out.push_back(warning_at(
        doc, yaml_child_path(at, "eventName"),
        "EventSource \"" + dep.event_source_name + "\" defines no event \"" + dep.event_name + "\""
          + suggestion(dep.event_name, events)
          + " (a warning even with --strict: the sensor runs, and this dependency waits for an "
            "event that never comes)"));
  }
  return out;
}

std::vector<diagnostic> unresolved_dependencies(const std::vector<document>& documents) {
  auto provided = events_provided(documents);
  std::vector<diagnostic> out;
  for (const auto& doc : documents) {
    auto found = unresolved_dependencies(doc, provided);
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

} // namespace ganglion::dsl
