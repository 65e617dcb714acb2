#pragma once

// Manifests built in code for a kind's tests: the kind's model plus what dsl keeps beside it
// (a source event's filter; an action's parameter lists and JSON), put together as loading
// would (dsl::source_event, dsl::trigger_action).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/model.hpp"

namespace ganglion::test {

/// A source kind's model with the event's `filter`.
template <class Model>
struct event_under_test : Model {
  std::optional<dsl::event_source_filter> filter;
};

/// A trigger kind's model with the action's `payload[]` and `parameters[]`.
template <class Model>
struct action_under_test : Model {
  std::vector<dsl::trigger_parameter> payload;
  std::vector<dsl::trigger_parameter> parameters;
};

/// Event `name` of source `type`, as loading with the kind's spec step makes it.
template <class Model>
dsl::source_event make_event(const std::string& type, const std::string& name,
                             const event_under_test<Model>& spec) {
  dsl::source_event out;
  out.type = type;
  out.name = name;
  out.json = "{}";
  out.filter = spec.filter;
  out.spec = static_cast<const Model&>(spec);
  return out;
}

/// Sets event `name` of source `type` in `es` (replacing one of the same type and name).
template <class Model>
void put_event(dsl::event_source& es, const std::string& type, const std::string& name,
               const event_under_test<Model>& spec) {
  auto event = make_event(type, name, spec);
  for (auto& e : es.spec.events)
    if (e.type == type && e.name == name) {
      e = std::move(event);
      return;
    }
  es.spec.events.push_back(std::move(event));
}

/// Action `type` of a trigger template, as loading with the kind's spec step makes it; `json`
/// is the action as the manifest would hold it (what template-level parameters rewrite).
template <class Model>
dsl::trigger_action make_action(const std::string& type, const action_under_test<Model>& spec,
                                const nlohmann::json& json = nlohmann::json::object()) {
  dsl::trigger_action out;
  out.type = type;
  out.json = json.dump();
  out.payload = spec.payload;
  out.parameters = spec.parameters;
  out.spec = static_cast<const Model&>(spec);
  return out;
}

} // namespace ganglion::test
