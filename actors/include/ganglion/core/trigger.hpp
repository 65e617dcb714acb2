#pragma once

#include <any>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ganglion/core/event.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// One firing of a trigger: the latest event of each dependency of its condition, and what the
/// core parameter step resolved from them before the executor sees it.
struct trigger_invocation {
  /// Dependency name → its event; a dependency absent from the map holds no event (`||`).
  std::map<std::string, event_ptr> events;
  /// The `<kind>` object (`http`, `kafka` …) of the template after `parameters[]` and
  /// `<kind>.parameters[]`, as JSON text. Empty when the trigger has neither
  /// (resource_parameterized() is false): the manifest's spec applies as it is. For an
  /// executor that applies its own parameters (trigger_executor::applies_own_parameters), the
  /// object after `parameters[]` only, and empty when the trigger has none.
  std::string resource_json;
  /// The body `<kind>.payload[]` builds (Argo's ConstructPayload); empty when it has none.
  std::string payload;
};

/// How an execution ended.
struct trigger_outcome {
  bool ok = false;
  std::string error;   ///< why it failed
  std::string detail;  ///< e.g. `HTTP 200`
  /// What the execution produced, as a JSON object, shown as `lastResult` in /v1/status (k8s:
  /// the reference of the object it created or changed); empty: nothing to report.
  std::string result{};
};

/// Called exactly once per execution, from any thread.
using trigger_done = std::function<void(trigger_outcome)>;

/// Executes one kind of trigger action. Created once per trigger actor start.
class trigger_executor {
public:
  virtual ~trigger_executor() = default;

  /// Starts one execution; must not block; calls `done` when finished. `invocation` is valid
  /// during the call only.
  virtual void execute(const trigger_invocation& invocation, trigger_done done) = 0;

  /// Executions the engine may run at once; 0 (or less than the engine's default): the
  /// default. Executors that batch their sends (kafka, nats) ask for more: each execution only
  /// waits for its share of a batch's acknowledgement.
  virtual std::size_t max_concurrency() const { return 0; }

  /// Whether `execute` reads `invocation.events`. An executor that sends only what the core
  /// parameter step resolved (`resource_json`, `payload`) says no, and the step then hands it
  /// the invocation without copying the events per firing.
  virtual bool reads_events() const { return true; }

  /// Whether `execute` applies the action's `<kind>.parameters[]` itself, to the resource it
  /// fetches (Argo's k8s and argoWorkflow: FetchResource, then ApplyResourceParameters). The
  /// core step then applies only the template's `parameters[]`.
  virtual bool applies_own_parameters() const { return false; }

  /// What one execution would do, with no side effect (for `ganglion test`): e.g. the exact
  /// HTTP request. Throws std::runtime_error when the invocation cannot be resolved.
  virtual std::string preview(const trigger_invocation& invocation) {
    return "(no preview for this trigger type)";
  }
};

/// What the engine hands a trigger executor when it creates it.
struct trigger_context {
  std::string sensor_name;
  /// The sensor's `metadata.namespace`; empty when its manifest gives none.
  std::string sensor_namespace;
  /// The sensor's `template.serviceAccountName`; empty when its manifest gives none.
  std::string sensor_service_account;
  /// The engine's data directory (`--data-dir`), where an executor may keep files of its own
  /// (e.g. git clones, under a folder of the sensor's namespace); empty: none.
  std::string data_dir;
  const dsl::trigger* manifest = nullptr;
  std::shared_ptr<const secret_store> secrets;
  metrics_registry* metrics = nullptr;
  /// True when the executor serves a dry run (`ganglion test`): only preview() is called, so an
  /// executor may come up without the connection or API its execute() needs, and say in the
  /// preview what it could not read without them.
  bool dry_run = false;
};

/// Raised by a trigger factory for a configuration that cannot run.
class trigger_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The secret `ref` for the trigger of `ctx`; throws trigger_error naming `field` (the YAML path)
/// when there is no secret store or the secret cannot be read.
std::string read_trigger_secret(const trigger_context& ctx, const dsl::secret_key_selector& ref,
                                const char* field);

/// Why a trigger's configuration cannot run, found without creating an executor: no connection
/// is made and no secret is read (`secrets` may be null). One message per problem; none: the
/// executor may still fail on what only running shows (a secret, a broker).
using trigger_check = std::function<std::vector<std::string>(const trigger_context&)>;

/// Creates executors for one trigger action type, and checks a configuration before any is
/// created (`validate`, and `run` before it starts anything).
class trigger_factory {
public:
  /// Creates an executor. Throws trigger_error.
  using create_function =
    std::function<std::unique_ptr<trigger_executor>(const trigger_context&)>;

  trigger_factory() = default;

  /// A kind without a check step: `create` alone.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, trigger_factory>
             && std::is_constructible_v<create_function, F>)
  trigger_factory(F create) : create_(std::move(create)) {}

  /// A kind with a check step, which runs before `create` (operator()): `create` sees only a
  /// configuration `check` passed.
  trigger_factory(create_function create, trigger_check check)
    : create_(std::move(create)), check_(std::move(check)) {}

  /// A kind with a check step and a spec step (how dsl reads and checks its part of a
  /// manifest; ganglion/dsl/kind_spec.hpp).
  trigger_factory(create_function create, trigger_check check, dsl::kind_spec spec)
    : create_(std::move(create)), check_(std::move(check)), spec_(std::move(spec)) {}

  /// Creates an executor after the check step, whose first problem it throws as trigger_error
  /// (the message `validate` shows for it). Throws trigger_error.
  std::unique_ptr<trigger_executor> operator()(const trigger_context& ctx) const {
    if (auto problems = check(ctx); !problems.empty())
      throw trigger_error(problems.front());
    return create_(ctx);
  }

  /// What the check step finds wrong with `ctx`'s trigger; empty without a check step.
  std::vector<std::string> check(const trigger_context& ctx) const {
    return check_ ? check_(ctx) : std::vector<std::string>{};
  }

  /// The kind's spec step (empty functions: the kind has none).
  const dsl::kind_spec& spec() const noexcept { return spec_; }

private:
  create_function create_;
  trigger_check check_;
  dsl::kind_spec spec_;
};

/// Trigger factories by template key (`http`, `log` …).
using trigger_registry = std::map<std::string, trigger_factory>;

/// The action of `manifest` (its template's only action); nullptr when it has none.
inline const dsl::trigger_action* action_of(const dsl::trigger& manifest) {
  const auto& actions = manifest.template_.actions;
  return actions.empty() ? nullptr : &actions.front();
}

/// The kind's model of `ctx`'s action (what its spec step read); throws trigger_error when the
/// manifest was loaded without that step.
template <class Model>
const Model& spec_of(const trigger_context& ctx) {
  const auto* action = ctx.manifest ? action_of(*ctx.manifest) : nullptr;
  if (!action)
    throw trigger_error("the trigger template has no action");
  if (const auto* model = std::any_cast<Model>(&action->spec))
    return *model;
  throw trigger_error("template." + action->type
                      + " was loaded without the spec step of its kind");
}

/// Adds the trigger kinds the engine runs itself (`log`) to `registry`, keeping any already there.
void add_engine_triggers(trigger_registry& registry);

} // namespace ganglion::core
