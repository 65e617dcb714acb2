// Rules of the kubernetes kind's triggers: Argo's validateK8STrigger and
// validateArgoWorkflowTrigger, and what the API alone cannot do. Every diagnostic is checked at
// its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(kubernetes_spec_rules, k8s_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        k8s:\n          operation: apply\n"
    "          parameters:\n            - src: {dependencyName: nope, dataKey: x}\n"
    "              dest: metadata.name\n"
    "    - template:\n        name: b\n        k8s:\n"
    "          patchStrategy: application/yaml\n          liveObject: true\n"
    "          source: {resource: {apiVersion: v1, kind: Pod}}\n"
    "    - template:\n        name: c\n        k8s:\n          operation: patch\n"
    "          patchStrategy: application/json-patch+json\n"
    "          source: {resource: {apiVersion: v1, kind: Pod}}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.k8s";
  const std::string b = "spec.triggers[1].template.k8s";
  EXPECT_TRUE(has_diagnostic(r, a, position_of(yaml, "k8s:"), "needs a source"));
  EXPECT_TRUE(has_diagnostic(r, a + ".operation", position_of(yaml, "operation"),
                             "operation must be one of create, update, patch, delete, got "
                             "\"apply\""));
  EXPECT_TRUE(has_diagnostic(r, a + ".parameters[0].src.dependencyName",
                             position_of(yaml, "dependencyName"), "unknown dependency \"nope\""));
  EXPECT_TRUE(has_diagnostic(r, b + ".patchStrategy", position_of(yaml, "patchStrategy"),
                             "patchStrategy must be one of"));
  EXPECT_TRUE(has_diagnostic(r, b + ".liveObject", position_of(yaml, "liveObject"),
                             "update operation only", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[2].template.k8s.patchStrategy",
                             position_of(yaml, "patchStrategy", 2),
                             "a JSON patch is a list of operations", severity::warning));
}

TEST(kubernetes_spec_rules, argo_workflow_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        argoWorkflow:\n          operation: retry\n"
    "          source: {resource: {apiVersion: argoproj.io/v1alpha1, kind: Workflow}}\n"
    "    - template:\n        name: b\n        argoWorkflow:\n          operation: submit\n"
    "          args: [--node-field-selector, phase=abc, -p, novalue, --wait]\n"
    "          source: {resource: {apiVersion: argoproj.io/v1alpha1, kind: Workflow}}\n"
    "    - template:\n        name: c\n        argoWorkflow:\n          operation: resume\n"
    "          args: [--dry-run]\n"
    "    - template:\n        name: d\n        argoWorkflow:\n"
    "          source: {resource: {apiVersion: argoproj.io/v1alpha1, kind: Workflow}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.argoWorkflow.operation",
                             position_of(yaml, "operation"), "Kubernetes API alone"));
  const std::string args = "spec.triggers[1].template.argoWorkflow.args";
  // `--node-field-selector` changes only what argo prints: taken, with no diagnostic.
  EXPECT_FALSE(has_diagnostic(r, args + "[0]", position_of(yaml, "--node-field-selector"), ""));
  EXPECT_FALSE(has_diagnostic(r, args + "[1]", position_of(yaml, "phase=abc"), ""));
  EXPECT_TRUE(has_diagnostic(r, args + "[3]", position_of(yaml, "novalue"), "NAME=VALUE"));
  EXPECT_TRUE(has_diagnostic(r, args + "[4]", position_of(yaml, "--wait"),
                             "has no equivalent in the Workflow object"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[2].template.argoWorkflow",
                             position_of(yaml, "argoWorkflow:", 3), "needs a source"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[2].template.argoWorkflow.args[0]",
                             position_of(yaml, "--dry-run"), "argo resume"));
  // Argo requires the operation to be written.
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[3].template.argoWorkflow.operation",
                             position_of(yaml, "argoWorkflow:", 4), "got \"\""));
}

TEST(kubernetes_spec_rules, a_valid_trigger_has_no_diagnostic) {
  auto r = load(sensor_yaml(
    "    - template:\n        name: w\n        argoWorkflow:\n          operation: submit\n"
    "          args: [-p, message=hi]\n"
    "          source:\n            resource:\n              apiVersion: argoproj.io/v1alpha1\n"
    "              kind: Workflow\n              metadata: {generateName: wf-}\n"
    "          parameters:\n            - src: {dependencyName: d, dataKey: body}\n"
    "              dest: spec.arguments.parameters.0.value\n"
    "      policy:\n        k8s:\n          labels: {workflows.argoproj.io/phase: Succeeded}\n"));
  EXPECT_TRUE(clean(r));
}
