#pragma once

// An EventBus kind: how a program reads, checks, plans and opens the bus of an EventBus
// `spec.<type>` (jetstream, jetstreamExotic, kafka, nats). A transport registers one beside
// its source and trigger kinds, in its bus/ folder (docs/adding-a-kind.md, "A bus kind").

#include <any>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/document.hpp"

namespace ganglion::core {

/// What `run` does with an EventBus, decided before it connects.
enum class bus_action {
  run,      ///< open the kind's driver
  embedded, ///< run the embedded bus instead (a warning says why)
  refuse,   ///< stop (an error says why)
};

/// A bus kind's plan for one EventBus: what to do, and the note to locate at `field`.
struct bus_decision {
  bus_action action = bus_action::run;
  std::string field;   ///< the YAML path of the note (`spec.jetstream`)
  std::string message; ///< why (empty for a plain `run`)
};

/// What a bus kind's plan sees.
struct bus_plan_input {
  const dsl::document& document; ///< the EventBus (its body a dsl::event_bus)
  bool bus_url = false;          ///< `run --bus-url` is given
};

/// What a bus kind's driver is opened with.
struct bus_open_input {
  const dsl::document& document;               ///< the EventBus
  std::shared_ptr<const secret_store> secrets; ///< the Secrets of the EventBus's namespace
  std::string bus_url;                         ///< `--bus-url`; empty: none
  std::string replica_id;                      ///< `--replica-id`; empty: host-pid-random
  std::chrono::milliseconds lease_ttl{5000};   ///< `--lease-ttl`
  /// The object's `status` as JSON text when it was read from the cluster; empty otherwise.
  std::string cluster_status;
  const option_values& options; ///< what the command line gave the kinds' own options
};

/// One EventBus kind.
struct bus_factory {
  /// Reads and checks `spec.<type>` into the kind's model (dsl::event_bus_spec::spec).
  dsl::kind_spec spec_step;
  /// What `run` does with the EventBus; empty: it runs.
  std::function<bus_decision(const bus_plan_input&)> plan;
  /// Connects and returns the bus; throws std::runtime_error with the reason. Empty for a kind
  /// whose plan never says run.
  std::function<std::shared_ptr<remote_bus>(const bus_open_input&)> open;
};

/// The EventBus of `document` and the model its kind's spec step read (as core::spec_of does
/// for a source or trigger); throws std::runtime_error when the document was loaded without
/// that step.
template <class Model>
std::pair<const dsl::event_bus&, const Model&> bus_spec_of(const dsl::document& document) {
  const auto& bus = std::get<dsl::event_bus>(document.body);
  const auto* model = std::any_cast<Model>(&bus.spec.spec);
  if (!model)
    throw std::runtime_error("EventBus " + bus.metadata.name + ": spec." + bus.spec.type
                             + " was not read");
  return {bus, *model};
}

/// The EventBus kinds a program runs, by the key of the EventBus's spec (`jetstream`, `kafka`).
using bus_registry = std::map<std::string, bus_factory, std::less<>>;

} // namespace ganglion::core
