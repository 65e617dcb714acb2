// Mapping of the kubernetes kind's triggers: every field of `template.k8s` and
// `template.argoWorkflow` from YAML to the model, with Argo's defaults, and `args` onto what
// `argo submit` would set.

#include <gtest/gtest.h>

#include "ganglion/kubernetes/spec.hpp"
#include "model_test_kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion;
using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;
using kubernetes::k8s_trigger_spec;
using kubernetes::workflow_trigger_spec;

TEST(kubernetes_spec_mapping, k8s_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("    - template:\n        name: k\n        k8s:\n"
                            "          operation: patch\n"
                            "          patchStrategy: application/strategic-merge-patch+json\n"
                            "          liveObject: true\n"
                            "          source:\n            resource:\n"
                            "              apiVersion: v1\n              kind: ConfigMap\n"
                            "              metadata: {name: c}\n"
                            "          parameters:\n"
                            "            - src: {dependencyName: d, dataKey: body.x}\n"
                            "              dest: data.x\n"));
  const auto& t = only_template(r);
  const auto& k8s = action_spec<k8s_trigger_spec>(t);
  EXPECT_EQ(k8s.operation, "patch");
  EXPECT_EQ(k8s.patch_strategy, "application/strategic-merge-patch+json");
  EXPECT_TRUE(k8s.live_object);
  EXPECT_TRUE(k8s.source) << "the source part's reader read it";
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "data.x");
}

TEST(kubernetes_spec_mapping, k8s_trigger_defaults_are_argos) {
  auto r = load(sensor_yaml("    - template:\n        name: k\n        k8s:\n"
                            "          source: {resource: {apiVersion: v1, kind: Pod}}\n"));
  const auto& k8s = action_spec<k8s_trigger_spec>(only_template(r));
  EXPECT_EQ(k8s.effective_operation(), "create");
  EXPECT_EQ(k8s.effective_patch_strategy(), "application/merge-patch+json");
  EXPECT_FALSE(k8s.live_object);
}

TEST(kubernetes_spec_mapping, argo_workflow_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("    - template:\n        name: w\n        argoWorkflow:\n"
                            "          operation: submit\n"
                            "          args: [-p, \"message=hi\", \"--parameter=n=2\",\n"
                            "                 --entrypoint, main, --serviceaccount=sa,\n"
                            "                 --generate-name, wf-, -l, \"a=1,b=2\"]\n"
                            "          source: {resource: {apiVersion: argoproj.io/v1alpha1,"
                            " kind: Workflow}}\n"));
  const auto& wf = action_spec<workflow_trigger_spec>(only_template(r));
  EXPECT_EQ(wf.operation, "submit");
  EXPECT_EQ(wf.args.size(), 10u);
  EXPECT_TRUE(wf.arg_problems.empty());
  using param = std::pair<std::string, std::string>;
  EXPECT_EQ(wf.mapped.parameters, (std::vector<param>{{"message", "hi"}, {"n", "2"}}));
  EXPECT_EQ(wf.mapped.entrypoint, "main");
  EXPECT_EQ(wf.mapped.service_account, "sa");
  EXPECT_EQ(wf.mapped.generate_name, "wf-");
  EXPECT_EQ(wf.mapped.labels, (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
}

TEST(kubernetes_spec_mapping, args_take_every_spelling_of_a_flag) {
  std::vector<kubernetes::workflow_arg_problem> problems;
  auto a = kubernetes::map_workflow_args({"-pa=1", "-p=b=2", "--name=x", "--labels", "k=v"},
                                         "submit-from", problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(a.parameters.size(), 2u);
  EXPECT_EQ(a.parameters[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_EQ(a.parameters[1], (std::pair<std::string, std::string>{"b", "2"}));
  EXPECT_EQ(a.name, "x");
  EXPECT_EQ(a.labels.at("k"), "v");
}

TEST(kubernetes_spec_mapping, args_that_only_change_what_argo_prints_are_taken_without_effect) {
  std::vector<kubernetes::workflow_arg_problem> problems;
  auto a = kubernetes::map_workflow_args({"--node-field-selector", "phase=abc", "--status=Running",
                                          "-o", "json", "-p", "a=1"},
                                         "submit", problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(a.parameters.size(), 1u);
  EXPECT_EQ(a.parameters[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_TRUE(a.labels.empty());
  EXPECT_TRUE(a.name.empty());
}
