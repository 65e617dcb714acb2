#pragma once

// The kinds the ganglion binary registers, for model tests that load manifests as it does.

#include <any>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"

namespace ganglion::dsl::testing {

/// Loading options with the spec step of every kind the binary runs.
inline const load_options& with_kinds() {
  static const load_options options =
    app::load_options_for(app::register_kinds(std::make_shared<http::runtime>()));
  return options;
}

/// The kind's model of event `type`.`name` of `es`; throws when it is absent or not a Model.
template <class Model>
const Model& event_spec(const event_source& es, std::string_view type, std::string_view name) {
  const auto* event = es.spec.find(type, name);
  const auto* model = event ? std::any_cast<Model>(&event->spec) : nullptr;
  if (!model)
    throw std::runtime_error("no modelled event " + std::string{type} + "." + std::string{name});
  return *model;
}

/// The kind's model of the action of `t`; throws when it has none or it is not a Model.
template <class Model>
const Model& action_spec(const trigger_template& t) {
  const auto& actions = t.actions;
  const auto* model = actions.empty() ? nullptr : std::any_cast<Model>(&actions.front().spec);
  if (!model)
    throw std::runtime_error("the trigger has no modelled action of the expected kind");
  return *model;
}

/// The bus kind's model of the EventBus `bus`; throws when it has none or it is not a Model.
template <class Model>
const Model& bus_spec(const event_bus& bus) {
  const auto* model = std::any_cast<Model>(&bus.spec.spec);
  if (!model)
    throw std::runtime_error("the EventBus has no modelled spec." + bus.spec.type);
  return *model;
}

} // namespace ganglion::dsl::testing
