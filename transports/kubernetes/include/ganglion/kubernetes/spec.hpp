#pragma once

// The trigger models of the kubernetes kind: `template.k8s` and `template.argoWorkflow` of a
// Sensor, as their spec steps read them. Their `parameters[]` are the core's
// (dsl::trigger_action), applied by the executors to the fetched object.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"

namespace ganglion::kubernetes {

namespace detail {
struct artifact_location; // src/artifact/artifact.hpp
}

/// Argo's patch strategies (`k8s.patchStrategy`), the content types of the PATCH request.
namespace patch_strategy {
inline constexpr const char* merge = "application/merge-patch+json"; ///< Argo's default
inline constexpr const char* json = "application/json-patch+json";
inline constexpr const char* strategic = "application/strategic-merge-patch+json";
inline constexpr const char* apply = "application/apply-patch+yaml";
} // namespace patch_strategy

/// `template.k8s` (Argo's StandardK8STrigger): one operation on a Kubernetes object per firing.
struct k8s_trigger_spec {
  /// `source`: where the object comes from; null when absent.
  std::shared_ptr<const detail::artifact_location> source;
  /// create | update | patch | delete, as written (empty: create).
  std::string operation;
  /// The PATCH content type (empty: merge).
  std::string patch_strategy;
  /// With `update`: the parameters apply to the live object, read from the API first.
  bool live_object = false;

  /// The operation in effect (`create` when none is written).
  std::string effective_operation() const { return operation.empty() ? "create" : operation; }
  /// The patch strategy in effect.
  std::string effective_patch_strategy() const {
    return patch_strategy.empty() ? patch_strategy::merge : patch_strategy;
  }
};

/// What the `args` of an argoWorkflow trigger set on the Workflow it submits (the flags of
/// `argo submit` that map onto the object).
struct workflow_args {
  /// `-p name=value`, `--parameter name=value` → spec.arguments.parameters, in order.
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string entrypoint;       ///< `--entrypoint` → spec.entrypoint
  std::string service_account;  ///< `--serviceaccount` → spec.serviceAccountName
  std::string name;             ///< `--name` → metadata.name
  std::string generate_name;    ///< `--generate-name` → metadata.generateName
  std::map<std::string, std::string> labels; ///< `-l`, `--labels k=v[,k=v]` → metadata.labels
};

/// One argument `workflow_args` could not take: its index in `args` and why.
struct workflow_arg_problem {
  std::size_t index = 0;
  std::string message;
};

/// `template.argoWorkflow` (Argo's ArgoWorkflowTrigger), run through the API (no `argo` CLI).
struct workflow_trigger_spec {
  /// `source`: the Workflow (submit) or the object an operation names; null when absent.
  std::shared_ptr<const detail::artifact_location> source;
  /// submit | submit-from | resubmit | retry | resume | suspend | terminate | stop.
  std::string operation;
  /// `args` as written.
  std::vector<std::string> args;
  /// What `args` set; `arg_problems` lists those that do not map.
  workflow_args mapped;
  std::vector<workflow_arg_problem> arg_problems;
};

/// Maps `argo` CLI arguments onto what they set on a submitted Workflow; each argument that has
/// no such meaning (for `operation`) goes to `problems`.
workflow_args map_workflow_args(const std::vector<std::string>& args, const std::string& operation,
                                std::vector<workflow_arg_problem>& problems);

/// The spec step of the k8s trigger (reads and checks `template.k8s`).
dsl::kind_spec k8s_trigger_spec_step();

/// The spec step of the argoWorkflow trigger (reads and checks `template.argoWorkflow`).
dsl::kind_spec workflow_trigger_spec_step();

} // namespace ganglion::kubernetes
