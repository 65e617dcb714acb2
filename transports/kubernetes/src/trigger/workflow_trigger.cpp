// The `argoWorkflow` trigger (Argo's pkg/sensors/triggers/argo-workflow) through the API: what
// the `argo` CLI Argo runs would do, done with Workflow objects.

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "artifact/artifact.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/kubernetes/spec.hpp"
#include "trigger/object_trigger.hpp"
#include "trigger/trigger_factories.hpp"
#include "trigger/workflow_objects.hpp"

namespace ganglion::kubernetes::detail {

namespace {

using json = nlohmann::json;

constexpr const char* workflows_api = "argoproj.io/v1alpha1";

std::string text_at(const json& object, const json::json_pointer& at) {
  return object.contains(at) && object[at].is_string() ? object[at].get<std::string>() : "";
}

/// `spec` changes of the operations that only patch a Workflow.
std::optional<json> patch_of(const std::string& op) {
  if (op == "suspend")
    return json{{"spec", {{"suspend", true}}}};
  if (op == "resume")
    return json{{"spec", {{"suspend", nullptr}}}};
  if (op == "terminate")
    return json{{"spec", {{"shutdown", "Terminate"}}}};
  if (op == "stop")
    return json{{"spec", {{"shutdown", "Stop"}}}};
  return std::nullopt;
}

class workflow_operation final : public object_operation {
public:
  explicit workflow_operation(const workflow_trigger_spec& spec)
    : operation_(spec.operation.empty() ? "submit" : spec.operation), args_(spec.mapped) {}

  operation_result act(const trigger_site& site, json object) const override {
    auto name = text_at(object, "/metadata/name"_json_pointer);
    if (name.empty()) {
      if (operation_ != "submit")
        throw std::runtime_error(fmt::format(
          "failed to execute the workflow {} operation, no name is given", operation_));
      if (text_at(object, "/metadata/generateName"_json_pointer).empty())
        throw std::runtime_error(
          "failed to trigger the workflow, neither name nor generateName is given");
    }
    const auto ns = site.namespace_of(object);
    const auto workflows = site.resource_of(workflows_api, "Workflow");
    site.check_scope(workflows, ns, "metadata.namespace");
    const auto collection = api_client::path_of(workflows, ns);
    auto submit = [&](json wf, const char* verb) -> operation_result {
      wf["metadata"]["namespace"] = ns;
      auto created = site.send("POST", collection, wf.dump(), "application/json",
                               "cannot submit the Workflow");
      auto created_name = text_at(created, "/metadata/name"_json_pointer);
      return {api_client::path_of(workflows, ns, created_name),
              fmt::format("{} Workflow {}/{}", verb, ns, created_name),
              object_reference(verb, workflows, ns, created_name, created)};
    };
    if (operation_ == "submit") {
      if (object.value("kind", "") != "Workflow")
        throw std::runtime_error(fmt::format("submit needs a Workflow, the source holds a {}",
                                             object.value("kind", "(no kind)")));
      add_labels(object, site.created_labels());
      apply_args(object, args_);
      return submit(std::move(object), "submitted");
    }
    if (operation_ == "submit-from")
      return submit(from(site, object, name, ns), "submitted");
    const auto path = api_client::path_of(workflows, ns, name);
    if (operation_ == "resubmit") {
      auto old = site.get(path, "cannot read the Workflow to resubmit");
      if (!old)
        throw std::runtime_error(fmt::format("Workflow {}/{} not found", ns, name));
      return submit(resubmitted_workflow(*old), "resubmitted");
    }
    auto patch = patch_of(operation_);
    if (!patch)
      throw std::runtime_error(fmt::format("unknown operation type {}", operation_));
    auto patched = site.send("PATCH", path, patch->dump(), "application/merge-patch+json",
                             fmt::format("cannot {} the Workflow", operation_));
    return {path, fmt::format("{} Workflow {}/{}", operation_, ns, name),
            object_reference(operation_, workflows, ns, name, patched)};
  }

  std::string describe(const trigger_site& site, const json& object) const override {
    auto name = text_at(object, "/metadata/name"_json_pointer);
    if (operation_ == "submit") {
      auto wf = object;
      apply_args(wf, args_);
      return fmt::format("argoWorkflow submit (with the labels events.argoproj.io/sensor, "
                         "/trigger, /action-timestamp)\n\n{}",
                         wf.dump(2));
    }
    return fmt::format("argoWorkflow {} {} {}", operation_, object.value("kind", ""), name);
  }

private:
  /// The Workflow `argo submit --from <kind>/<name>` creates.
  json from(const trigger_site& site, const json& object, const std::string& name,
            const std::string& ns) const {
    auto kind = object.value("kind", "");
    auto lower = kind;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower != "cronworkflow" && lower != "workflowtemplate"
        && lower != "clusterworkflowtemplate")
      throw std::runtime_error(fmt::format("invalid kind {}", kind));
    auto resource = site.resource_of(object.value("apiVersion", workflows_api), kind);
    site.check_scope(resource, ns, "metadata.namespace");
    auto found = site.get(api_client::path_of(resource, ns, name),
                          fmt::format("cannot read {} {}", kind, name));
    if (!found)
      throw std::runtime_error(fmt::format("{} {} not found", kind, name));
    auto wf = lower == "cronworkflow"
                ? workflow_from_cron(*found)
                : workflow_from_template(name, lower == "clusterworkflowtemplate");
    apply_args(wf, args_);
    return wf;
  }

  std::string operation_;
  workflow_args args_;
};

} // namespace

std::vector<std::string> workflow_trigger_problems(const core::trigger_context& ctx,
                                                   const options& opts) {
  return core::check_spec<workflow_trigger_spec>(ctx, [&](const auto& spec) {
    std::vector<std::string> own;
    const auto& op = spec.operation;
    if (op == "retry")
      own.emplace_back("operation retry cannot be run through the Kubernetes API alone");
    else if (op != "submit" && op != "submit-from" && op != "resubmit" && op != "resume"
             && op != "suspend" && op != "terminate" && op != "stop")
      own.push_back(fmt::format("unknown operation type \"{}\"", op));
    for (const auto& p : spec.arg_problems)
      own.push_back(fmt::format("argoWorkflow.args[{}]: {}", p.index, p.message));
    return object_trigger_problems(ctx, opts, "argoWorkflow", spec.source.get(), own);
  });
}

core::trigger_factory make_workflow_trigger_factory(const options& opts) {
  return object_trigger_factory<workflow_trigger_spec, workflow_operation>(
    opts, "argoWorkflow", &workflow_trigger_problems, workflow_trigger_spec_step());
}

} // namespace ganglion::kubernetes::detail
