// The objects the triggers send in place of the argo CLI and of Argo's mergo update.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "trigger/object_merge.hpp"
#include "trigger/workflow_objects.hpp"

using namespace ganglion::kubernetes;
using namespace ganglion::kubernetes::detail;
using json = nlohmann::json;

TEST(workflow_objects, submit_from_a_template_references_it) {
  auto wf = workflow_from_template("build", false);
  EXPECT_EQ(wf["kind"], "Workflow");
  EXPECT_EQ(wf["metadata"]["generateName"], "build-");
  EXPECT_EQ(wf["spec"]["workflowTemplateRef"], json({{"name", "build"}}));
  EXPECT_EQ(wf["metadata"]["labels"]["workflows.argoproj.io/workflow-template"], "build");
  auto cluster = workflow_from_template("build", true);
  EXPECT_EQ(cluster["spec"]["workflowTemplateRef"]["clusterScope"], true);
  EXPECT_EQ(cluster["metadata"]["labels"]["workflows.argoproj.io/cluster-workflow-template"],
            "build");
}

TEST(workflow_objects, submit_from_a_cron_workflow_takes_its_workflow_spec) {
  auto cron = json::parse(R"({"metadata":{"name":"nightly"},"spec":{"schedule":"0 0 * * *",
    "workflowSpec":{"entrypoint":"main"},"workflowMetadata":{"labels":{"team":"a"}}}})");
  auto wf = workflow_from_cron(cron);
  EXPECT_EQ(wf["metadata"]["generateName"], "nightly-");
  EXPECT_EQ(wf["spec"], json({{"entrypoint", "main"}}));
  EXPECT_EQ(wf["metadata"]["labels"]["team"], "a");
  EXPECT_EQ(wf["metadata"]["labels"]["workflows.argoproj.io/cron-workflow"], "nightly");
}

TEST(workflow_objects, resubmit_copies_the_spec_and_user_labels) {
  auto old = json::parse(R"({"metadata":{"name":"wf-1","labels":{"team":"a",
    "workflows.argoproj.io/phase":"Failed"}},"spec":{"entrypoint":"main","shutdown":"Stop"},
    "status":{"phase":"Failed"}})");
  auto wf = resubmitted_workflow(old);
  EXPECT_EQ(wf["metadata"]["generateName"], "wf-1-");
  EXPECT_FALSE(wf["metadata"].contains("name"));
  EXPECT_EQ(wf["spec"], json({{"entrypoint", "main"}}));
  EXPECT_FALSE(wf.contains("status"));
  EXPECT_EQ(wf["metadata"]["labels"],
            json({{"team", "a"}, {"workflows.argoproj.io/resubmitted-from-workflow", "wf-1"}}));
}

TEST(workflow_objects, args_set_parameters_first_then_the_others) {
  auto wf = json::parse(R"({"metadata":{"generateName":"x-"},"spec":{"arguments":{"parameters":
    [{"name":"a","value":"old"},{"name":"b","value":"keep"}]}}})");
  workflow_args args;
  args.parameters = {{"a", "new"}, {"c", "3"}};
  args.entrypoint = "main";
  args.service_account = "runner";
  args.labels = {{"team", "a"}};
  apply_args(wf, args);
  EXPECT_EQ(wf["spec"]["arguments"]["parameters"],
            json::parse(R"([{"name":"a","value":"new"},{"name":"c","value":"3"},
                            {"name":"b","value":"keep"}])"));
  EXPECT_EQ(wf["spec"]["entrypoint"], "main");
  EXPECT_EQ(wf["spec"]["serviceAccountName"], "runner");
  EXPECT_EQ(wf["metadata"]["labels"]["team"], "a");
}

TEST(object_merge, update_merges_maps_and_keeps_what_an_empty_value_would_erase) {
  auto live = json::parse(R"({"metadata":{"name":"c","resourceVersion":"7","labels":{"a":"1"}},
    "data":{"x":"1","y":"2"},"list":[1,2]})");
  merge_into(live, json::parse(R"({"metadata":{"name":"c","labels":{"b":"2"}},
    "data":{"x":"changed","y":""},"list":[3]})"));
  EXPECT_EQ(live["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(live["metadata"]["labels"], json({{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(live["data"], json({{"x", "changed"}, {"y", "2"}}));
  EXPECT_EQ(live["list"], json({3}));
}
