#include "load/load_fingerprints.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "yaml/argo_types.hpp"
#include "yaml/yaml_json.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"

// A fingerprint is the part's JSON as Kubernetes would decode it, dumped with sorted keys: two
// spellings of the same value (quoting, key order, flow or block style) give the same text.

namespace ganglion::dsl::detail {

namespace {

using json = nlohmann::json;
using fingerprints = std::map<std::string, std::string>;

void add(fingerprints& out, const std::string& key, const json& part) {
  auto text = part.dump();
  auto [it, added] = out.try_emplace(key, text);
  if (!added)
    it->second += "\n" + text; // a name used twice: both parts count
}

std::string name_at(const json& object, const char* key) {
  if (!object.is_object())
    return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::string template_name(const json& trigger) {
  if (!trigger.is_object())
    return {};
  auto it = trigger.find("template");
  return it == trigger.end() ? std::string{} : name_at(*it, "name");
}

bool is_source_type(const std::string& key) {
  return std::find(event_source_types.begin(), event_source_types.end(), key)
         != event_source_types.end();
}

fingerprints of_event_source(json spec) {
  fingerprints out;
  if (!spec.is_object())
    spec = json::object();
  for (auto it = spec.begin(); it != spec.end();) {
    if (!is_source_type(it.key()) || !it->is_object()) {
      ++it;
      continue;
    }
    for (const auto& [name, event] : it->items())
      add(out, "event/" + name, json{{it.key(), event}});
    it = spec.erase(it);
  }
  add(out, "eventsource", spec);
  return out;
}

fingerprints of_sensor(json spec) {
  fingerprints out;
  if (!spec.is_object())
    spec = json::object();
  if (auto deps = spec.find("dependencies"); deps != spec.end()) {
    if (deps->is_array())
      for (const auto& dep : *deps)
        add(out, "dependency/" + name_at(dep, "name"), dep);
    spec.erase(deps);
  }
  if (auto triggers = spec.find("triggers"); triggers != spec.end()) {
    if (triggers->is_array())
      for (const auto& trigger : *triggers)
        add(out, "trigger/" + template_name(trigger), trigger);
    spec.erase(triggers);
  }
  add(out, "sensor", spec);
  return out;
}

/// Replaces each part's text by its 128-bit digest: the engine keeps the fingerprints of
/// every running part (10 000 sensors' texts would cost tens of MB), and only equality counts.
fingerprints digested(fingerprints parts) {
  for (auto& [key, text] : parts) {
    auto hash = XXH3_128bits(text.data(), text.size());
    text = fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
  }
  return parts;
}

fingerprints of_kind(const YAML::Node& root, const std::string& kind) {
  auto spec = child(root, "spec");
  if (kind == "EventSource")
    return of_event_source(yaml_to_json(spec, "EventSourceSpec"));
  if (kind == "Sensor")
    return of_sensor(yaml_to_json(spec, "SensorSpec"));
  if (kind == "EventBus")
    return {{"eventbus", yaml_to_json(spec, "EventBusSpec").dump()}};
  return {};
}

} // namespace

fingerprints fingerprint_document(const YAML::Node& root, const std::string& kind) {
  return digested(of_kind(root, kind));
}

} // namespace ganglion::dsl::detail
