// A webhook event submits an Argo Workflow: `ganglion run --kubeconfig` against the test API
// server, the binary as a process.

#include "engine_process.hpp"
#include "eventually.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

TEST(e2e_kubernetes, a_webhook_event_submits_a_workflow_through_the_api) {
  test::kube::api_server api;
  api.add_resource("argoproj.io", "v1alpha1", "Workflow", "workflows", true, true);
  auto kubeconfig = test::temp_dir() + "/kubeconfig";
  test::write_file(kubeconfig, api.kubeconfig({}, std::nullopt, "ci"));
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                               + e2e::hook_sensor(R"(    - template:
        name: build
        argoWorkflow:
          operation: submit
          source:
            resource:
              apiVersion: argoproj.io/v1alpha1
              kind: Workflow
              metadata: {generateName: build-}
              spec:
                entrypoint: main
                arguments:
                  parameters: [{name: commit, value: none}]
          parameters:
            - src: {dependencyName: d, dataKey: body.commit}
              dest: spec.arguments.parameters.0.value
)"),
                             {}, true, {"--kubeconfig", kubeconfig}};
  ASSERT_EQ(e2e::post(port, "example", R"({"commit":"4f2a"})").status, 200);
  std::vector<nlohmann::json> made;
  ASSERT_TRUE(test::eventually([&] {
    made = api.list("argoproj.io/v1alpha1", "Workflow", "ci");
    return !made.empty();
  })) << engine.output();
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]["spec"]["arguments"]["parameters"][0]["value"], "4f2a");
  EXPECT_EQ(made[0]["metadata"]["labels"]["events.argoproj.io/sensor"], "s");
  EXPECT_EQ(made[0]["metadata"]["labels"]["events.argoproj.io/trigger"], "build");
  EXPECT_TRUE(engine.wait_metric(e2e::triggers_fired("s", "build", 1)))
    << engine.output();
}
