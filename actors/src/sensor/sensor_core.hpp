#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include "ganglion/core/event.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/expr/condition.hpp"
#include "ganglion/dsl/filter/expr_filter.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/filter/precompiled_filters.hpp"
#include "ganglion/dsl/script/jq_transform.hpp"
#include "ganglion/dsl/script/lua_script.hpp"
#include "ganglion/dsl/filter/time_filter.hpp"
#include "ganglion/dsl/model.hpp"
#include "sensor/dedup_window.hpp"
#include "bus/route_index.hpp"

namespace ganglion::core {

/// A dependency with its filters compiled.
struct compiled_dependency {
  std::string name;
  std::string event_source_name;
  std::string event_name;
  /// Data and expr filters, shared with the manifest when the loader compiled them.
  std::shared_ptr<const dsl::precompiled_filters> compiled;
  std::optional<dsl::event_context> context;
  std::optional<dsl::compiled_time_filter> time;
  std::optional<dsl::compiled_script_filter> script;
  std::optional<dsl::jq_transform> jq;
  std::optional<dsl::lua_transform> lua;
  bool filters_or = false;
  counter* passed = nullptr;
  counter* rejected = nullptr;
  counter* errored = nullptr;
  /// Runs its budgets can cut off: a script (a transform, the script filter) or a filter path
  /// that builds JSON.
  bool budgeted = false;
  /// Scripts and filter paths cut off by their budget.
  counter* cut_off = nullptr;
  metrics_registry* metrics = nullptr;
  std::string sensor_name;
  /// Rejections by kind, created on first use.
  std::unordered_map<std::string, counter*> rejected_by_kind;
};

/// A trigger's condition with its join state.
struct compiled_trigger {
  std::string name;
  /// Shared with the manifest when the loader compiled it.
  std::shared_ptr<const dsl::condition> condition;
  /// variable index → dependency index.
  std::vector<std::size_t> variable_dependency;
  /// variable index → the latest event held for it (join state).
  std::vector<event_ptr> held;
  std::vector<std::uint8_t> present;
};

/// A decision to fire one trigger.
struct firing {
  std::size_t trigger = 0;
  trigger_invocation invocation;
};

/// Why a dependency did or did not accept an event.
struct dependency_verdict {
  std::size_t dependency = 0;
  bool pass = false;
  /// Which stage rejected it: data, context, expr, time, script, transform (empty on pass).
  std::string kind;
  std::string reason;
  /// A script of the dependency was cut off by its budget (reason says which).
  bool cut_off = false;
};

/// An event held in a trigger's join state, waiting for the rest of its condition.
struct held_event_ref {
  std::string trigger;
  std::string dependency;
  event_ptr event;
};

/// Settings of a sensor's matching core.
struct sensor_options {
  /// An event id seen again within this window (remembered for up to twice as long) is
  /// skipped (0: no deduplication).
  std::chrono::milliseconds dedup_window{300000};
  /// Most event ids remembered for deduplication; the oldest are forgotten first.
  std::size_t dedup_capacity = 1u << 20;
  /// Time one run of a jq or Lua transform or a Lua script filter may take.
  std::chrono::milliseconds script_budget = dsl::default_script_budget;
};

/// The matching core of one sensor: routes an event to its dependencies, runs their filters
/// on JSON parsed once, keeps the latest event per dependency per trigger, and decides firings.
/// Not thread-safe: one sensor actor owns it.
class sensor_core {
public:
  /// Compiles the sensor; throws std::runtime_error naming what cannot run.
  explicit sensor_core(const dsl::sensor& manifest, metrics_registry* metrics = nullptr,
                       sensor_options options = {});

  /// Whether `e` is for this sensor's namespace: an event and a sensor of two different
  /// namespaces never meet (an event or a sensor that names none meets every namespace).
  bool same_namespace(const event& e) const noexcept {
    return namespace_.empty() || e.namespace_.empty() || e.namespace_ == namespace_;
  }

  /// Processes one event; appends the firings it causes to `out` and, when `verdicts` is
  /// given, why each dependency accepted or rejected it. An event whose id was processed
  /// within the dedup window is skipped and counted.
  void process(const event_ptr& e, std::vector<firing>& out,
               std::vector<dependency_verdict>* verdicts = nullptr);

  /// The (eventSourceName, eventName) pairs the sensor listens to.
  std::vector<std::pair<std::string, std::string>> subscriptions() const;

  /// Compiled triggers (names, conditions).
  const std::vector<compiled_trigger>& triggers() const noexcept { return triggers_; }

  /// Compiled dependencies.
  const std::vector<compiled_dependency>& dependencies() const noexcept { return dependencies_; }

  /// Every event held in join state.
  std::vector<held_event_ref> held() const;

  /// Puts `e` into trigger `trigger`'s join state for `dependency` (a join carried over a
  /// reload); false when the trigger or its condition has no such dependency.
  bool hold(const std::string& trigger, const std::string& dependency, event_ptr e);

  /// Clears every trigger's join state.
  void reset();

  /// Clears the join state of trigger `index` (conditionsReset).
  void reset_trigger(std::size_t index);

  /// Events skipped because their id was seen within the dedup window.
  std::uint64_t duplicates() const noexcept { return duplicates_; }

  /// The ids this sensor remembers (restored after a restart, moved across a reload).
  dedup_window& dedup() noexcept { return dedup_; }

  /// Scripts cut off by their budget one after another, with no script run finishing within
  /// its budget in between.
  std::uint64_t consecutive_cut_offs() const noexcept { return consecutive_cut_offs_; }

  /// The latest cut-off: `dependency '<name>': <what was cut off and why>`.
  const std::string& last_cut_off() const noexcept { return last_cut_off_; }

private:
  bool accepts(compiled_dependency& dep, const dsl::event_view& view, dependency_verdict& verdict);
  event_ptr transformed(compiled_dependency& dep, const event_ptr& e, const dsl::event_view& view,
                        dsl::event_view& out, dependency_verdict& verdict);

  std::string sensor_name_;
  std::string namespace_;
  std::vector<compiled_dependency> dependencies_;
  std::vector<compiled_trigger> triggers_;
  /// (eventSourceName, eventName) → dependency indexes.
  route_index<std::size_t> index_;
  /// dependency index → (trigger index, variable index) pairs using it.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> users_;
  std::vector<std::uint8_t> matched_;
  /// Triggers whose join state the current event changed (scratch).
  std::vector<std::size_t> touched_;
  /// dependency index → the event it matched (the transformed one when it has a transform).
  std::vector<event_ptr> matched_event_;
  dedup_window dedup_;
  std::uint64_t duplicates_ = 0;
  counter* duplicate_counter_ = nullptr;
  std::uint64_t consecutive_cut_offs_ = 0;
  std::string last_cut_off_;
};

} // namespace ganglion::core
