#pragma once

// What the k8s and argoWorkflow executors share: Argo's triggerOne after the template
// parameters (FetchResource → ApplyResourceParameters → Execute → ApplyPolicy), each execution
// on one of the executor's own threads.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/core/trigger.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes::detail {

struct artifact_location;

/// The trigger an operation runs for, and its API client.
struct trigger_site {
  std::string type; ///< `k8s` or `argoWorkflow`
  std::string sensor;
  std::string sensor_namespace;
  std::string trigger;
  /// The client of its calls: acting as the sensor's service account in `impersonate` mode.
  std::shared_ptr<api_client> client;
  /// The user `client` impersonates; empty: the engine's credentials.
  std::string acting_user;
  /// `namespace` mode: the only namespace it may act in; empty: no confinement.
  std::string confined_to;

  /// `<type> trigger <sensor>/<trigger>`, for messages.
  std::string name() const;
  /// The object's namespace, else the sensor's, else the configuration's.
  std::string namespace_of(const nlohmann::json& object) const;
  /// The resource of `api_version` and `kind` from discovery; throws std::runtime_error when
  /// the API server does not serve it or discovery fails.
  resource_info resource_of(const std::string& api_version, const std::string& kind) const;
  /// The resource of the object's apiVersion and kind (both required).
  resource_info resource_of(const nlohmann::json& object) const;
  /// In `namespace` mode, throws std::runtime_error unless `resource` is namespaced and `ns` is
  /// `confined_to`; `field` names what chose `ns` (`metadata.namespace`).
  void check_scope(const resource_info& resource, const std::string& ns,
                   std::string_view field) const;
  /// Sends a request; throws std::runtime_error `<what>: <the API's message>` unless 2xx.
  /// The response body as JSON (null when empty).
  nlohmann::json send(const std::string& method, const std::string& path,
                      const std::string& body, const std::string& content_type,
                      const std::string& what) const;
  /// The object at `path`; nullopt when the API answers 404; throws like send.
  std::optional<nlohmann::json> get(const std::string& path, const std::string& what) const;
  /// Argo's labels of a created object: events.argoproj.io/sensor, /trigger and
  /// /action-timestamp (milliseconds since the epoch).
  std::map<std::string, std::string> created_labels() const;
};

/// What an operation did.
struct operation_result {
  /// The object policy.k8s watches (`api_client::path_of`); empty when none is left.
  std::string watch_path;
  /// For the outcome: e.g. `created Workflow default/wf-x2k9d`.
  std::string detail;
  /// The object acted on (object_reference), `lastResult` in /v1/status; null when none.
  nlohmann::json reference{};
};

/// What /v1/status shows of the object an operation acted on: `operation` (`created` …),
/// `apiVersion`, `kind`, `namespace` (when namespaced), `name`, and the `uid` and
/// `resourceVersion` of `returned` (the API's answer) when it has them.
nlohmann::json object_reference(const std::string& operation, const resource_info& resource,
                                const std::string& ns, const std::string& name,
                                const nlohmann::json& returned);

/// The kind-specific part: k8s's operations or argoWorkflow's. Called on the executor's threads,
/// so it keeps no state across executions.
class object_operation {
public:
  virtual ~object_operation() = default;
  /// The object to apply the parameters to, from the fetched one (k8s liveObject reads the
  /// live object here). Throws std::runtime_error.
  virtual nlohmann::json fetched(const trigger_site& site, nlohmann::json object) const {
    return object;
  }
  /// Runs the operation on `object` (after the parameters). Throws std::runtime_error.
  virtual operation_result act(const trigger_site& site, nlohmann::json object) const = 0;
  /// What act would send, for `ganglion test`.
  virtual std::string describe(const trigger_site& site, const nlohmann::json& object) const = 0;
};

/// The executor of a k8s or argoWorkflow trigger: `source` (the spec's), `operation`, the API
/// client of `opts`; throws core::trigger_error naming the trigger (no configuration, a source
/// or parameters that cannot be used).
std::unique_ptr<core::trigger_executor>
make_object_executor(const core::trigger_context& ctx, const options& opts, std::string type,
                     std::shared_ptr<const artifact_location> source,
                     std::unique_ptr<object_operation> operation);

/// The factory of an object trigger kind (`k8s`, `argoWorkflow`): `problems(ctx, opts)` is its
/// check step, and its executor runs an `Operation` built from the kind's model `Spec` on the
/// model's `source`.
template <class Spec, class Operation>
core::trigger_factory
object_trigger_factory(const options& opts, std::string type,
                       std::vector<std::string> (*problems)(const core::trigger_context&,
                                                            const options&),
                       dsl::kind_spec spec_step) {
  auto create = [opts, type](const core::trigger_context& ctx)
    -> std::unique_ptr<core::trigger_executor> {
    const auto& spec = core::spec_of<Spec>(ctx);
    return make_object_executor(ctx, opts, type, spec.source, std::make_unique<Operation>(spec));
  };
  auto check = [opts, problems](const core::trigger_context& ctx) { return problems(ctx, opts); };
  return {std::move(create), std::move(check), std::move(spec_step)};
}

} // namespace ganglion::kubernetes::detail
