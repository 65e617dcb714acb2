#include <initializer_list>

#include "artifact/artifact.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

void check_operation(const std::string& op, const std::string& path,
                     std::initializer_list<std::string_view> allowed, const load_context& cx) {
  std::string list;
  for (auto a : allowed) {
    if (op == a)
      return;
    if (!a.empty())
      list += (list.empty() ? "" : ", ") + std::string{a};
  }
  cx.error(child_path(path, "operation"),
           "operation must be one of " + list + ", got \"" + op + "\"");
}

/// What both triggers share: the source and the resource parameters.
void check_common(const std::shared_ptr<const artifact_location>& source, const char* needs,
                  const char* type, const dsl::spec_check_input& in) {
  if (!source)
    in.cx.error(in.path, std::string{"the "} + type + " trigger needs a source (" + needs + ")");
  else
    check_artifact_location(*source, child_path(in.path, "source"), in.cx);
  validate_parameters(in.action->parameters, child_path(in.path, "parameters"), false, *in.scope,
                      in.cx, std::string{type} + ".parameters");
}

} // namespace

void check_k8s_trigger(const k8s_trigger_spec& k8s, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  check_common(k8s.source, "the resource to act on", "k8s", in);
  check_operation(k8s.operation, path, {"", "create", "update", "patch", "delete"}, cx);
  const auto strategy_path = child_path(path, "patchStrategy");
  if (!k8s.patch_strategy.empty()) {
    const std::string& s = k8s.patch_strategy;
    if (s != patch_strategy::merge && s != patch_strategy::json && s != patch_strategy::strategic
        && s != patch_strategy::apply)
      cx.error(strategy_path,
               "patchStrategy must be one of application/merge-patch+json, "
               "application/json-patch+json, application/strategic-merge-patch+json, "
               "application/apply-patch+yaml, got \"" + s + "\"");
    else if (s == patch_strategy::json && k8s.effective_operation() == "patch")
      cx.warning(strategy_path,
                 "application/json-patch+json sends the object as the patch, as Argo does; the "
                 "API refuses it (a JSON patch is a list of operations): use a merge patch");
    if (k8s.effective_operation() != "patch")
      cx.warning(strategy_path, "patchStrategy applies to the patch operation only; ignored");
  }
  if (k8s.live_object && k8s.effective_operation() != "update")
    cx.warning(child_path(path, "liveObject"),
               "liveObject applies to the update operation only; ignored");
}

void check_workflow_trigger(const workflow_trigger_spec& workflow,
                            const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  check_common(workflow.source, "the workflow", "argoWorkflow", in);
  // Argo requires the operation to be written.
  check_operation(workflow.operation, path,
                  {"submit", "submit-from", "suspend", "retry", "resume", "resubmit", "terminate",
                   "stop"},
                  cx);
  if (workflow.operation == "retry")
    cx.error(child_path(path, "operation"),
             "operation retry cannot be run through the Kubernetes API alone: it resets the "
             "failed nodes of the Workflow's status, which only the Argo Server or the argo CLI "
             "does (ganglion runs no argo CLI); use resubmit to run it again");
  const auto args = child_path(path, "args");
  for (const auto& problem : workflow.arg_problems)
    cx.error(item_path(args, problem.index), problem.message);
}

} // namespace ganglion::kubernetes::detail
