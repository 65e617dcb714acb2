#pragma once

// The Workflow objects the argo CLI would submit, built for the API (ganglion runs no CLI).

#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/kubernetes/spec.hpp"

namespace ganglion::kubernetes::detail {

/// `argo submit --from workflowtemplate/<name>` (or clusterworkflowtemplate): a Workflow
/// `<name>-…` whose spec.workflowTemplateRef names the template, labelled with it.
nlohmann::json workflow_from_template(const std::string& name, bool cluster_scope);

/// `argo submit --from cronwf/<name>`: a Workflow `<name>-…` of the CronWorkflow's
/// spec.workflowSpec and spec.workflowMetadata, labelled with it.
nlohmann::json workflow_from_cron(const nlohmann::json& cron);

/// `argo resubmit <name>`: a new Workflow with the spec, user labels and annotations of `old`,
/// named after it, labelled `workflows.argoproj.io/resubmitted-from-workflow`.
nlohmann::json resubmitted_workflow(const nlohmann::json& old);

/// What `args` set (argo's ApplySubmitOpts): the given parameters first, then the Workflow's
/// others; entrypoint, service account, name, generateName, labels.
void apply_args(nlohmann::json& workflow, const workflow_args& args);

/// Adds `labels` to the object's metadata.labels.
void add_labels(nlohmann::json& object, const std::map<std::string, std::string>& labels);

} // namespace ganglion::kubernetes::detail
