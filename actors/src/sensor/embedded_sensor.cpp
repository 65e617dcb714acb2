// One sensor as an actor of a host's system (ganglion/core/embed.hpp): the matching core of
// sensor_core.hpp behind a CAF behavior, with firings reported instead of executed.

#include "ganglion/core/embed.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "ganglion/dsl/load.hpp"
#include "sensor/sensor_core.hpp"

namespace ganglion::core {

namespace {

struct embedded_state {
  std::shared_ptr<const dsl::sensor> manifest;
  std::shared_ptr<sensor_core> core;
  std::vector<firing> scratch;
  static inline const char* name = "ganglion.embedded_sensor";
};

caf::behavior embedded_sensor(caf::stateful_actor<embedded_state>* self,
                              std::shared_ptr<const dsl::sensor> manifest,
                              std::shared_ptr<sensor_core> core, caf::actor listener) {
  auto& st = self->state;
  st.manifest = std::move(manifest);
  st.core = std::move(core);
  return {
    [self, listener](const event& e) {
      auto& st = self->state;
      st.scratch.clear();
      st.core->process(std::make_shared<const event>(e), st.scratch);
      for (const auto& f : st.scratch) {
        sensor_firing out;
        out.sensor = st.manifest->metadata.name;
        out.trigger = st.core->triggers()[f.trigger].name;
        for (const auto& [dependency, held] : f.invocation.events)
          if (held)
            out.events.emplace(dependency, *held);
        self->send(listener, std::move(out));
      }
    },
  };
}

} // namespace

void add_message_types(caf::actor_system_config& config) {
  config.add_message_type<event>("ganglion.event");
  config.add_message_type<sensor_firing>("ganglion.sensor_firing");
}

caf::actor spawn_sensor(caf::actor_system& system, const dsl::sensor& sensor,
                        const caf::actor& listener) {
  auto manifest = std::make_shared<const dsl::sensor>(sensor);
  // Compiled here, so that a sensor that cannot run throws to the caller.
  auto core = std::make_shared<sensor_core>(*manifest);
  return system.spawn(embedded_sensor, std::move(manifest), std::move(core), listener);
}

caf::actor spawn_sensor(caf::actor_system& system, const std::string& yaml,
                        const caf::actor& listener, const std::string& file) {
  sensor_yaml_options options;
  options.file = file;
  return spawn_sensor(system, yaml, listener, options).actor;
}

spawned_sensor spawn_sensor(caf::actor_system& system, const std::string& yaml,
                            const caf::actor& listener, const sensor_yaml_options& options) {
  const auto& file = options.file;
  dsl::load_options load;
  load.strict = options.strict;
  auto loaded = dsl::load_manifest_text(yaml, file, load);
  std::string problems;
  spawned_sensor out;
  for (const auto& d : loaded.diagnostics) {
    if (d.level == dsl::severity::error || options.strict)
      problems += "\n  " + d.to_string();
    else
      out.warnings.push_back(d.to_string());
  }
  if (!problems.empty())
    throw std::runtime_error("the sensor does not load:" + problems);
  const dsl::sensor* found = nullptr;
  for (const auto& doc : loaded.documents) {
    if (auto s = std::get_if<dsl::sensor>(&doc.body)) {
      if (found)
        throw std::runtime_error(file + ": holds more than one Sensor; spawn_sensor takes one");
      found = s;
    }
  }
  if (!found)
    throw std::runtime_error(file + ": holds no Sensor");
  out.actor = spawn_sensor(system, *found, listener);
  return out;
}

} // namespace ganglion::core
