// /v1/status shows each trigger's last execution: for k8s, the reference of the object it
// created; for one the API refuses (403) or whose kind discovery does not list, the error —
// `ganglion run --kubeconfig` against the test API server, the binary as a process.

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;

namespace {

/// The component `trigger <name>` of a /v1/status document; null when absent.
nlohmann::json trigger_status(const std::string& status, const std::string& name) {
  auto doc = nlohmann::json::parse(status, nullptr, false);
  if (doc.is_discarded())
    return nullptr;
  for (const auto& c : doc["components"])
    if (c["kind"] == "trigger" && c["name"] == name)
      return c;
  return nullptr;
}

/// A k8s create trigger `name` of an object of `api_version`/`kind` named by generateName.
std::string create_trigger(const std::string& name, const std::string& api_version,
                           const std::string& kind) {
  return fmt::format(R"(    - template:
        name: {}
        k8s:
          operation: create
          source:
            resource:
              apiVersion: {}
              kind: {}
              metadata: {{generateName: made-}}
)",
                     name, api_version, kind);
}

} // namespace

TEST(e2e_kubernetes_status, each_trigger_shows_its_last_object_or_its_last_error) {
  test::kube::api_server api;
  api.forbid("create", "pods");
  auto kubeconfig = test::temp_dir() + "/kubeconfig";
  test::write_file(kubeconfig, api.kubeconfig({}, std::nullopt, "ci"));
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"})
      + e2e::hook_sensor(create_trigger("made", "v1", "ConfigMap")
                         + create_trigger("denied", "v1", "Pod")
                         + create_trigger("unknown", "example.com/v1", "Widget")),
    {},
    true,
    {"--kubeconfig", kubeconfig}};
  ASSERT_EQ(e2e::post(port, "example", R"({"n":1})").status, 200);

  nlohmann::json made, denied, unknown;
  ASSERT_TRUE(test::eventually([&] {
    auto status = engine.status();
    made = trigger_status(status, "s/made");
    denied = trigger_status(status, "s/denied");
    unknown = trigger_status(status, "s/unknown");
    return made.contains("lastResult") && denied.contains("lastExecution")
           && unknown.contains("lastExecution");
  }))
    << engine.status() << engine.output();

  auto objects = api.list("v1", "ConfigMap", "ci");
  ASSERT_EQ(objects.size(), 1u);
  const auto& object = objects[0]["metadata"];
  EXPECT_EQ(made["lastExecution"]["outcome"], "Succeeded") << made;
  EXPECT_EQ(made["lastResult"], (nlohmann::json{{"operation", "created"},
                                                {"apiVersion", "v1"},
                                                {"kind", "ConfigMap"},
                                                {"namespace", "ci"},
                                                {"name", object["name"]},
                                                {"uid", object["uid"]},
                                                {"resourceVersion", object["resourceVersion"]}}));
  EXPECT_EQ(made["phase"], "Running");

  EXPECT_EQ(denied["lastExecution"]["outcome"], "Failed") << denied;
  EXPECT_EQ(denied["lastExecution"]["error"],
            "k8s trigger s/denied: cannot create Pod: HTTP 403: pods is forbidden: User "
            "\"system:anonymous\" cannot create resource \"pods\" in API group \"\" in the "
            "namespace \"ci\"")
    << denied;
  EXPECT_FALSE(denied.contains("lastResult")) << denied;
  EXPECT_EQ(denied["phase"], "Running");

  EXPECT_EQ(unknown["lastExecution"]["outcome"], "Failed") << unknown;
  EXPECT_EQ(unknown["lastExecution"]["error"],
            "k8s trigger s/unknown: the API server serves no kind Widget in example.com/v1 (its "
            "discovery does not list it)")
    << unknown;
  EXPECT_TRUE(
    engine.wait_metric(R"(ganglion_triggers_failed_total{sensor="s",trigger="denied"} 1)"))
    << engine.output();
}
