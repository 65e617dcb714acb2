#pragma once

// The k8s and argoWorkflow triggers against the test API server (tests/support/kube): a Sensor
// loaded from YAML with the kind's spec steps, its trigger's executor created as the engine
// creates it, fired with an event.

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "files.hpp"
#include "ganglion/core/kinds.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/load.hpp"
#include "ganglion/kubernetes/transport.hpp"
#include "kube/api_server.hpp"

namespace ganglion::test {

class trigger_fixture : public ::testing::Test {
protected:
  trigger_fixture() {
    server.add_resource("argoproj.io", "v1alpha1", "Workflow", "workflows", true, true);
    server.add_resource("argoproj.io", "v1alpha1", "WorkflowTemplate", "workflowtemplates");
    server.add_resource("argoproj.io", "v1alpha1", "ClusterWorkflowTemplate",
                        "clusterworkflowtemplates", false);
    server.add_resource("argoproj.io", "v1alpha1", "CronWorkflow", "cronworkflows");
    kubeconfig = temp_dir() + "/kubeconfig";
    write_file(kubeconfig, server.kubeconfig());
    kubernetes::register_transport(kinds.sources, kinds.triggers,
                                   kubernetes::options{kubeconfig, {}});
    options.kinds = core::spec_steps(kinds);
  }

  /// Loads a Sensor `s` (namespace `ns`; none when empty) with a dependency `d` and `triggers`
  /// (YAML list items indented by four); fails the test on a load error unless `errors_expected`.
  const dsl::sensor& load(const std::string& triggers, const std::string& ns = "default",
                          bool errors_expected = false) {
    auto yaml = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\n"
                + (ns.empty() ? std::string{} : "  namespace: " + ns + "\n")
                + "spec:\n  dependencies:\n    - {name: d, eventSourceName: es, eventName: e}\n"
                  "  triggers:\n"
                + triggers;
    loaded = dsl::load_manifest_text(yaml, "test.yaml", options);
    for (const auto& d : loaded.diagnostics) {
      if (!errors_expected) {
        EXPECT_NE(d.level, dsl::severity::error) << d.to_string();
      }
    }
    if (loaded.documents.size() != 1
        || !std::holds_alternative<dsl::sensor>(loaded.documents[0].body))
      throw std::runtime_error("the test manifest holds no Sensor");
    return std::get<dsl::sensor>(loaded.documents[0].body);
  }

  /// The executor of trigger `index` of the loaded Sensor, as the engine creates it (behind the
  /// core parameter step). Throws core::trigger_error.
  std::unique_ptr<core::trigger_executor> executor(std::size_t index = 0) {
    const auto& s = std::get<dsl::sensor>(loaded.documents[0].body);
    const auto& t = s.spec.triggers.at(index);
    core::trigger_context ctx;
    ctx.sensor_name = s.metadata.name;
    ctx.sensor_namespace = s.metadata.namespace_;
    ctx.manifest = &t;
    ctx.secrets = secrets;
    const auto& action = t.template_.actions.at(0);
    return core::create_trigger_executor(kinds.triggers.at(action.type), ctx);
  }

  /// Fires `executor` with an event of dependency `d` whose data is `data`; the outcome.
  static core::trigger_outcome fire(core::trigger_executor& executor,
                                    const nlohmann::json& data = nlohmann::json::object()) {
    auto e = std::make_shared<core::event>();
    e->id = "1";
    e->source = "es";
    e->subject = "e";
    e->type = "webhook";
    e->datacontenttype = "application/json";
    e->data = data.dump();
    core::trigger_invocation invocation;
    invocation.events["d"] = e;
    auto promise = std::make_shared<std::promise<core::trigger_outcome>>();
    auto future = promise->get_future();
    executor.execute(invocation, [promise](core::trigger_outcome o) { promise->set_value(o); });
    if (future.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
      throw std::runtime_error("the execution did not finish within 60 s");
    return future.get();
  }

  kube::api_server server;
  /// The secrets the executors read (s3 keys, git credentials, a GitHub App's key); none when
  /// null.
  std::shared_ptr<const core::secret_store> secrets;
  std::string kubeconfig;
  core::kinds kinds;
  dsl::load_options options;
  dsl::load_result loaded;
};

} // namespace ganglion::test
