// The argoWorkflow trigger against the test API server: every operation as Workflow objects
// (no argo CLI), args, parameters, Argo's labels, policy.k8s, and the failures a user sees.

#include "trigger_fixture.hpp"

using namespace ganglion;
using json = nlohmann::json;

namespace {

class workflow_trigger : public test::trigger_fixture {
protected:
  json put_workflow(const std::string& name, json spec = {{"entrypoint", "main"}}) {
    return server.put({{"apiVersion", "argoproj.io/v1alpha1"},
                       {"kind", "Workflow"},
                       {"metadata", {{"name", name}, {"namespace", "default"}}},
                       {"spec", std::move(spec)}});
  }

  std::optional<json> workflow(const std::string& name) {
    return server.get("argoproj.io/v1alpha1", "Workflow", "default", name);
  }
};

/// An argoWorkflow trigger of `operation` on the object `<kind> <name>`, with `extra` lines
/// (indented by ten) under `argoWorkflow:`.
std::string workflow_trigger_yaml(const std::string& operation, const std::string& kind,
                                  const std::string& name, const std::string& extra = {}) {
  return "    - template:\n        name: t\n        argoWorkflow:\n          operation: "
         + operation + "\n" + extra
         + "          source:\n            resource:\n"
           "              apiVersion: argoproj.io/v1alpha1\n              kind: "
         + kind + "\n              metadata: {name: " + name + "}\n";
}

const std::string hello_workflow =
  "    - template:\n        name: t\n        argoWorkflow:\n          operation: submit\n"
  "          args: [-p, \"extra=from-args\"]\n"
  "          source:\n            resource:\n              apiVersion: argoproj.io/v1alpha1\n"
  "              kind: Workflow\n              metadata: {generateName: hello-}\n"
  "              spec:\n                entrypoint: main\n"
  "                arguments:\n                  parameters:\n"
  "                    - {name: message, value: hello world}\n"
  "          parameters:\n            - src: {dependencyName: d, dataKey: body.message}\n"
  "              dest: spec.arguments.parameters.0.value\n";

} // namespace

TEST_F(workflow_trigger, submit_creates_the_workflow_with_the_event_args_and_labels) {
  load(hello_workflow, "ci");
  auto outcome = fire(*executor(), {{"body", {{"message", "from the event"}}}});
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto made = server.list("argoproj.io/v1alpha1", "Workflow", "ci");
  ASSERT_EQ(made.size(), 1u);
  const auto& wf = made[0];
  EXPECT_EQ(wf["metadata"]["name"].get<std::string>().rfind("hello-", 0), 0u);
  const auto& params = wf["spec"]["arguments"]["parameters"];
  EXPECT_EQ(params, json::parse(R"([{"name":"extra","value":"from-args"},
                                    {"name":"message","value":"from the event"}])"));
  EXPECT_EQ(wf["metadata"]["labels"]["events.argoproj.io/sensor"], "s");
  EXPECT_EQ(wf["metadata"]["labels"]["events.argoproj.io/trigger"], "t");
  EXPECT_TRUE(wf["metadata"]["labels"].contains("events.argoproj.io/action-timestamp"));
  EXPECT_NE(outcome.detail.find("submitted Workflow ci/hello-"), std::string::npos)
    << outcome.detail;
}

TEST_F(workflow_trigger, submit_from_a_workflow_template_references_it) {
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "WorkflowTemplate"},
              {"metadata", {{"name", "build"}, {"namespace", "default"}}},
              {"spec", {{"entrypoint", "main"}}}});
  load(workflow_trigger_yaml("submit-from", "WorkflowTemplate", "build",
                             "          args: [--parameter, \"ref=main\"]\n"));
  auto outcome = fire(*executor());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto made = server.list("argoproj.io/v1alpha1", "Workflow", "default");
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]["spec"]["workflowTemplateRef"], json({{"name", "build"}}));
  EXPECT_EQ(made[0]["spec"]["arguments"]["parameters"],
            json::parse(R"([{"name":"ref","value":"main"}])"));
  EXPECT_EQ(made[0]["metadata"]["labels"]["workflows.argoproj.io/workflow-template"], "build");
}

TEST_F(workflow_trigger, submit_from_a_cron_workflow_runs_its_workflow_spec) {
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "CronWorkflow"},
              {"metadata", {{"name", "nightly"}, {"namespace", "default"}}},
              {"spec", {{"schedule", "0 0 * * *"}, {"workflowSpec", {{"entrypoint", "go"}}}}}});
  load(workflow_trigger_yaml("submit-from", "CronWorkflow", "nightly"));
  ASSERT_TRUE(fire(*executor()).ok);
  auto made = server.list("argoproj.io/v1alpha1", "Workflow", "default");
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]["spec"]["entrypoint"], "go");
  EXPECT_EQ(made[0]["metadata"]["labels"]["workflows.argoproj.io/cron-workflow"], "nightly");
}

TEST_F(workflow_trigger, submit_from_a_missing_template_fails_naming_it) {
  load(workflow_trigger_yaml("submit-from", "WorkflowTemplate", "absent"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("argoWorkflow trigger s/t: WorkflowTemplate absent not found"),
            std::string::npos)
    << outcome.error;
}

TEST_F(workflow_trigger, suspend_resume_terminate_and_stop_set_the_workflow_spec) {
  put_workflow("running");
  struct step {
    const char* operation;
    std::function<bool(const json&)> holds;
  };
  const step steps[] = {
    {"suspend", [](const json& wf) { return wf["spec"].value("suspend", false); }},
    {"resume", [](const json& wf) { return !wf["spec"].contains("suspend"); }},
    {"terminate", [](const json& wf) { return wf["spec"].value("shutdown", "") == "Terminate"; }},
    {"stop", [](const json& wf) { return wf["spec"].value("shutdown", "") == "Stop"; }},
  };
  for (const auto& s : steps) {
    SCOPED_TRACE(s.operation);
    load(workflow_trigger_yaml(s.operation, "Workflow", "running"));
    auto outcome = fire(*executor());
    ASSERT_TRUE(outcome.ok) << outcome.error;
    auto wf = workflow("running");
    ASSERT_TRUE(wf);
    EXPECT_TRUE(s.holds(*wf)) << wf->dump();
    EXPECT_EQ((*wf)["spec"]["entrypoint"], "main") << "the rest of the spec is kept";
  }
}

TEST_F(workflow_trigger, resubmit_creates_a_new_workflow_from_the_named_one) {
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Workflow"},
              {"metadata", {{"name", "first"}, {"namespace", "default"},
                            {"labels", {{"team", "a"}}}}},
              {"spec", {{"entrypoint", "main"}, {"shutdown", "Stop"}}}});
  load(workflow_trigger_yaml("resubmit", "Workflow", "first"));
  ASSERT_TRUE(fire(*executor()).ok);
  auto made = server.list("argoproj.io/v1alpha1", "Workflow", "default");
  ASSERT_EQ(made.size(), 2u);
  const auto& copy = made[0]["metadata"]["name"] == "first" ? made[1] : made[0];
  EXPECT_EQ(copy["metadata"]["name"].get<std::string>().rfind("first-", 0), 0u);
  EXPECT_EQ(copy["spec"], json({{"entrypoint", "main"}}));
  EXPECT_EQ(copy["metadata"]["labels"]["team"], "a");
  EXPECT_EQ(copy["metadata"]["labels"]["workflows.argoproj.io/resubmitted-from-workflow"],
            "first");
}

TEST_F(workflow_trigger, an_operation_on_a_missing_workflow_fails_with_the_apis_message) {
  load(workflow_trigger_yaml("suspend", "Workflow", "absent"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("argoWorkflow trigger s/t: cannot suspend the Workflow: HTTP 404"),
            std::string::npos)
    << outcome.error;
}

TEST_F(workflow_trigger, a_server_without_workflows_fails_the_execution_naming_the_kind) {
  server.remove_resource("argoproj.io", "v1alpha1", "workflows");
  load(hello_workflow);
  auto outcome = fire(*executor(), {{"body", {{"message", "x"}}}});
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("Workflow"), std::string::npos) << outcome.error;
}

TEST_F(workflow_trigger, a_403_fails_the_execution_with_the_apis_message) {
  server.forbid("create", "workflows");
  load(hello_workflow);
  auto outcome = fire(*executor(), {{"body", {{"message", "x"}}}});
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("cannot submit the Workflow: HTTP 403"), std::string::npos)
    << outcome.error;
}

TEST_F(workflow_trigger, policy_waits_for_the_workflow_labels_a_controller_sets) {
  server.on_write("argoproj.io/v1alpha1", "workflows", [&](const test::kube::write_event& w) {
    if (w.verb != "create")
      return;
    server.update("argoproj.io/v1alpha1", "Workflow", "default",
                  w.object["metadata"]["name"].get<std::string>(), [](json& wf) {
                    wf["metadata"]["labels"]["workflows.argoproj.io/phase"] = "Succeeded";
                  });
  });
  load(hello_workflow
       + "      policy:\n        k8s:\n"
         "          labels: {workflows.argoproj.io/phase: Succeeded}\n"
         "          backoff: {duration: 50ms, steps: 20}\n          errorOnBackoffTimeout: true\n");
  auto outcome = fire(*executor(), {{"body", {{"message", "x"}}}});
  EXPECT_TRUE(outcome.ok) << outcome.error;
}

TEST_F(workflow_trigger, args_that_do_not_map_are_refused_before_running) {
  load(workflow_trigger_yaml("submit", "Workflow", "w", "          args: [--watch]\n"), "default",
       true);
  try {
    executor();
    FAIL() << "expected a trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("argoWorkflow.args[0]"), std::string::npos) << e.what();
  }
}
