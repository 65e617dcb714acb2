#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/kubernetes/spec.hpp"

// The readers (YAML → model) and rules (Argo's validate.go plus ganglion's) of the k8s and
// argoWorkflow triggers.

namespace ganglion::kubernetes::detail {

/// Reads `template.k8s`.
k8s_trigger_spec read_k8s_trigger(const dsl::spec_read_input& in);

/// Reads `template.argoWorkflow`, mapping its `args`.
workflow_trigger_spec read_workflow_trigger(const dsl::spec_read_input& in);

/// Argo's validateK8STrigger plus ganglion's rules for `template.k8s`.
void check_k8s_trigger(const k8s_trigger_spec& spec, const dsl::spec_check_input& in);

/// Argo's validateArgoWorkflowTrigger plus what the API alone cannot do.
void check_workflow_trigger(const workflow_trigger_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::kubernetes::detail
