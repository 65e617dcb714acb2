#pragma once

// Running ganglion inside a host's CAF 0.17 actor system: one sensor as an actor of the host's,
// fed with events as messages, reporting firings as messages. The whole engine runs in a host
// system through engine(caf::actor_system&, ...) (engine.hpp).

#include <map>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "ganglion/core/event.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// What an embedded sensor sends its listener each time one of its triggers fires. The trigger
/// itself is not executed: acting on the firing is the host's business.
struct sensor_firing {
  std::string sensor;  ///< the Sensor's metadata.name
  std::string trigger; ///< the trigger's template.name
  /// Dependency name → the event that satisfied it; a dependency of an `||` branch that held
  /// no event is absent.
  std::map<std::string, event> events;
};

/// A trigger kind whose execution is a message: each firing of a trigger of this kind is sent to
/// `listener` as a `sensor_firing` and counts as executed once sent. Register it under the
/// template key that the host's manifests give those triggers, e.g. `triggers["log"] =
/// actor_trigger(host)` (an Argo `log: {}` trigger then reports to `host` instead of logging).
trigger_factory actor_trigger(const caf::actor& listener);

/// Serialises an event (CAF 0.17 inspector), so that it may cross a middleman connection.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, event& x) {
  return f(caf::meta::type_name("ganglion.event"), x.id, x.source, x.type, x.subject, x.time,
           x.datacontenttype, x.specversion, x.data, x.sequence);
}

/// Serialises a firing (CAF 0.17 inspector).
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, sensor_firing& x) {
  return f(caf::meta::type_name("ganglion.sensor_firing"), x.sensor, x.trigger, x.events);
}

/// Registers `event` and `sensor_firing` with a host's configuration. Needed only when they
/// cross processes (middleman); local sends work without it.
void add_message_types(caf::actor_system_config& config);

/// Spawns one sensor in `system`. It takes `core::event` messages: `source` names the
/// EventSource and `subject` the event (Argo's eventSourceName and eventName), `data` is the
/// JSON payload. Each event goes through the sensor's dependencies, filters and conditions as
/// in `ganglion run`; every firing is sent to `listener` as a `sensor_firing`. Events are
/// processed in the order they arrive; ids seen within the last 5 minutes are skipped. The
/// actor runs until the host sends it an exit message. Throws std::runtime_error when the
/// sensor cannot run (a filter, condition or script that does not compile).
caf::actor spawn_sensor(caf::actor_system& system, const dsl::sensor& sensor,
                        const caf::actor& listener);

/// The same from manifest YAML text holding one Sensor (`file` names it in errors). Throws
/// std::runtime_error listing every problem as `file:line:col: path: message` when the text
/// does not load or validate, or when it holds no Sensor or several. Warnings (an unknown
/// field such as a misspelt `filters:`) are dropped: the overload with sensor_yaml_options
/// returns them or refuses them.
caf::actor spawn_sensor(caf::actor_system& system, const std::string& yaml,
                        const caf::actor& listener, const std::string& file = "<sensor>");

/// How spawn_sensor reads YAML text.
struct sensor_yaml_options {
  /// Names the text in messages.
  std::string file = "<sensor>";
  /// Warnings are errors: an unknown field or any other warning refuses the spawn.
  bool strict = false;
};

/// What spawn_sensor started from YAML text.
struct spawned_sensor {
  caf::actor actor;
  /// The loader's warnings, each `file:line:col: warning: path: message`; empty when strict.
  std::vector<std::string> warnings;
};

/// The same, returning the loader's warnings beside the actor. With `options.strict` a warning
/// refuses the spawn as an error does (std::runtime_error listing each, located).
spawned_sensor spawn_sensor(caf::actor_system& system, const std::string& yaml,
                            const caf::actor& listener, const sensor_yaml_options& options);

} // namespace ganglion::core
