// The k8s trigger against the test API server: each operation and patch strategy, liveObject,
// generateName, template and own parameters, Argo's labels and namespace, policy.k8s, and the
// failures a user must see on the trigger (unknown kind, 403, unreachable server).

#include <cstdlib>

#include "eventually.hpp"
#include "trigger_fixture.hpp"

using namespace ganglion;
using json = nlohmann::json;

namespace {

class k8s_trigger : public test::trigger_fixture {};

/// A k8s trigger `trigger` of `operation` on a ConfigMap `<name>` whose data.greeting is
/// "hello", with `extra` YAML lines (indented by ten) under `k8s:`.
std::string config_map_trigger(const std::string& operation, const std::string& name,
                               const std::string& extra = {}, const std::string& trigger = "t") {
  return "    - template:\n        name: " + trigger + "\n        k8s:\n          operation: "
         + operation
         + "\n" + extra
         + "          source:\n            resource:\n              apiVersion: v1\n"
           "              kind: ConfigMap\n              metadata: {name: " + name + "}\n"
           "              data: {greeting: hello}\n";
}

const std::string body_to_greeting = "          parameters:\n"
                                     "            - src: {dependencyName: d, dataKey: body.text}\n"
                                     "              dest: data.greeting\n";

} // namespace

TEST_F(k8s_trigger, create_puts_the_event_into_the_object_with_argos_labels) {
  load(config_map_trigger("create", "greeting", body_to_greeting), "team-a");
  auto outcome = fire(*executor(), {{"body", {{"text", "hi there"}}}});
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto cm = server.get("v1", "ConfigMap", "team-a", "greeting");
  ASSERT_TRUE(cm) << "created in the sensor's namespace";
  EXPECT_EQ((*cm)["data"]["greeting"], "hi there");
  const auto& labels = (*cm)["metadata"]["labels"];
  EXPECT_EQ(labels["events.argoproj.io/sensor"], "s");
  EXPECT_EQ(labels["events.argoproj.io/trigger"], "t");
  EXPECT_FALSE(labels["events.argoproj.io/action-timestamp"].get<std::string>().empty());
  EXPECT_NE(outcome.detail.find("created ConfigMap team-a/greeting"), std::string::npos)
    << outcome.detail;
}

TEST_F(k8s_trigger, create_with_generate_name_makes_a_new_object_per_firing) {
  load("    - template:\n        name: t\n        k8s:\n          source:\n"
       "            resource:\n              apiVersion: v1\n              kind: ConfigMap\n"
       "              metadata: {generateName: run-, namespace: other}\n");
  auto run = executor();
  ASSERT_TRUE(fire(*run).ok);
  ASSERT_TRUE(fire(*run).ok);
  auto made = server.list("v1", "ConfigMap", "other");
  ASSERT_EQ(made.size(), 2u) << "the object's own namespace wins over the sensor's";
  for (const auto& cm : made)
    EXPECT_EQ(cm["metadata"]["name"].get<std::string>().rfind("run-", 0), 0u);
}

TEST_F(k8s_trigger, a_sensor_without_namespace_uses_the_kubeconfigs) {
  load(config_map_trigger("create", "plain"), "");
  ASSERT_TRUE(fire(*executor()).ok);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "default", "plain"));
}

TEST_F(k8s_trigger, template_parameters_rewrite_the_source_before_it_is_fetched) {
  load(config_map_trigger("create", "placeholder")
       + "      parameters:\n"
         "        - src: {dependencyName: d, dataKey: body.name}\n"
         "          dest: k8s.source.resource.metadata.name\n");
  ASSERT_TRUE(fire(*executor(), {{"body", {{"name", "from-event"}}}}).ok);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "default", "from-event"));
  EXPECT_FALSE(server.get("v1", "ConfigMap", "default", "placeholder"));
}

TEST_F(k8s_trigger, update_merges_into_the_live_object_and_creates_a_missing_one) {
  server.put({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", "cm"}, {"namespace", "default"}, {"labels", {{"a", "1"}}}}},
              {"data", {{"greeting", "old"}, {"kept", "yes"}}}});
  load(config_map_trigger("update", "cm", body_to_greeting)
       + config_map_trigger("update", "fresh", {}, "u"));
  auto outcome = fire(*executor(0), {{"body", {{"text", "new"}}}});
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto cm = *server.get("v1", "ConfigMap", "default", "cm");
  EXPECT_EQ(cm["data"]["greeting"], "new");
  EXPECT_EQ(cm["data"]["kept"], "yes");
  EXPECT_EQ(cm["metadata"]["labels"]["a"], "1");
  EXPECT_FALSE(server.requests("PUT", "/api/v1/namespaces/default/configmaps/cm").empty());
  ASSERT_TRUE(fire(*executor(1)).ok);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "default", "fresh"));
}

TEST_F(k8s_trigger, live_object_applies_the_parameters_to_the_object_read_from_the_api) {
  server.put({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", "live"}, {"namespace", "default"}}},
              {"data", {{"greeting", "old"}, {"only-live", "yes"}}}});
  load("    - template:\n        name: t\n        k8s:\n          operation: update\n"
       "          liveObject: true\n"
       "          source:\n            resource:\n              apiVersion: v1\n"
       "              kind: ConfigMap\n              metadata: {name: live, namespace: default}\n"
       + body_to_greeting);
  ASSERT_TRUE(fire(*executor(), {{"body", {{"text", "fresh"}}}}).ok);
  auto cm = *server.get("v1", "ConfigMap", "default", "live");
  EXPECT_EQ(cm["data"]["greeting"], "fresh");
  EXPECT_EQ(cm["data"]["only-live"], "yes");
}

TEST_F(k8s_trigger, patch_sends_each_strategy_as_its_content_type) {
  for (const std::string strategy :
       {"", "application/merge-patch+json", "application/strategic-merge-patch+json",
        "application/apply-patch+yaml"}) {
    SCOPED_TRACE(strategy);
    server.put({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                {"metadata", {{"name", "p"}, {"namespace", "default"}}},
                {"data", {{"greeting", "old"}, {"other", "kept"}}}});
    server.clear_requests();
    load(config_map_trigger("patch", "p",
                            strategy.empty() ? "" : "          patchStrategy: " + strategy + "\n")
         + "          parameters:\n"
           "            - src: {dependencyName: d, dataKey: body.text}\n"
           "              dest: data.greeting\n");
    auto outcome = fire(*executor(), {{"body", {{"text", "patched"}}}});
    ASSERT_TRUE(outcome.ok) << outcome.error;
    auto cm = *server.get("v1", "ConfigMap", "default", "p");
    EXPECT_EQ(cm["data"]["greeting"], "patched");
    EXPECT_EQ(cm["data"]["other"], "kept");
    auto patches = server.requests("PATCH", "/api/v1/namespaces/default/configmaps/p");
    ASSERT_EQ(patches.size(), 1u);
    EXPECT_EQ(patches[0].content_type,
              strategy.empty() ? "application/merge-patch+json" : strategy);
  }
}

TEST_F(k8s_trigger, a_json_patch_is_the_object_as_argo_sends_it_and_the_api_refuses_it) {
  server.put({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", "j"}, {"namespace", "default"}}}});
  load(config_map_trigger("patch", "j", "          patchStrategy: application/json-patch+json\n"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s trigger s/t: failed to patch the object: HTTP "),
            std::string::npos)
    << outcome.error;
}

TEST_F(k8s_trigger, patch_and_update_of_a_missing_object_create_it) {
  load(config_map_trigger("patch", "was-missing"));
  ASSERT_TRUE(fire(*executor()).ok);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "default", "was-missing"));
}

TEST_F(k8s_trigger, delete_removes_the_object_and_a_missing_one_is_no_failure) {
  server.put({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", "gone"}, {"namespace", "default"}}}});
  load(config_map_trigger("delete", "gone"));
  auto run = executor();
  ASSERT_TRUE(fire(*run).ok);
  EXPECT_FALSE(server.get("v1", "ConfigMap", "default", "gone"));
  auto again = fire(*run);
  EXPECT_TRUE(again.ok) << again.error;
  EXPECT_NE(again.detail.find("nothing to delete"), std::string::npos) << again.detail;
}

TEST_F(k8s_trigger, a_kind_the_server_does_not_serve_fails_the_execution_naming_it) {
  load("    - template:\n        name: t\n        k8s:\n          source:\n"
       "            resource: {apiVersion: example.com/v1, kind: Gadget,"
       " metadata: {name: g}}\n");
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s trigger s/t: "), std::string::npos) << outcome.error;
  EXPECT_NE(outcome.error.find("Gadget"), std::string::npos) << outcome.error;
}

TEST_F(k8s_trigger, a_403_fails_the_execution_with_the_apis_message) {
  server.forbid("create", "configmaps");
  load(config_map_trigger("create", "nope"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s trigger s/t: cannot create ConfigMap: HTTP 403"),
            std::string::npos)
    << outcome.error;
}

TEST_F(k8s_trigger, an_unreachable_server_fails_the_execution) {
  std::string closed_config;
  {
    test::kube::api_server gone;
    closed_config = gone.kubeconfig();
  }
  auto path = test::temp_dir() + "/closed";
  test::write_file(path, closed_config);
  kinds = {};
  kubernetes::register_transport(kinds.sources, kinds.triggers, kubernetes::options{path, {}});
  load(config_map_trigger("create", "x"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s trigger s/t: "), std::string::npos) << outcome.error;
}

TEST_F(k8s_trigger, no_configuration_anywhere_is_refused_at_creation_naming_where_it_looked) {
  auto home = test::temp_dir();
  ::setenv("HOME", home.c_str(), 1);
  ::unsetenv("KUBECONFIG");
  ::unsetenv("KUBERNETES_SERVICE_HOST");
  kinds = {};
  kubernetes::register_transport(kinds.sources, kinds.triggers, kubernetes::options{});
  load(config_map_trigger("create", "x"));
  try {
    executor();
    FAIL() << "expected a trigger_error";
  } catch (const core::trigger_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("k8s trigger s/t: no Kubernetes API to talk to"), std::string::npos)
      << what;
    EXPECT_NE(what.find(home + "/.kube/config"), std::string::npos) << what;
  }
}

TEST_F(k8s_trigger, policy_labels_set_by_a_controller_make_the_execution_succeed) {
  server.on_write("v1", "configmaps", [&](const test::kube::write_event& w) {
    if (w.verb != "create")
      return;
    server.update("v1", "ConfigMap", "default", w.object["metadata"]["name"].get<std::string>(),
                  [](json& cm) { cm["metadata"]["labels"]["phase"] = "Succeeded"; });
  });
  load(config_map_trigger("create", "watched")
       + "      policy:\n        k8s:\n          labels: {phase: Succeeded}\n"
         "          backoff: {duration: 50ms, steps: 20}\n          errorOnBackoffTimeout: true\n");
  auto outcome = fire(*executor());
  EXPECT_TRUE(outcome.ok) << outcome.error;
}

TEST_F(k8s_trigger, policy_timeout_fails_or_succeeds_as_error_on_backoff_timeout_says) {
  for (bool error_on_timeout : {true, false}) {
    SCOPED_TRACE(error_on_timeout);
    server.remove("v1", "ConfigMap", "default", "never");
    load(config_map_trigger("create", "never")
         + "      policy:\n        k8s:\n          labels: {phase: Succeeded}\n"
           "          backoff: {duration: 20ms, factor: 1, jitter: 0, steps: 3}\n"
           "          errorOnBackoffTimeout: "
         + (error_on_timeout ? "true" : "false") + "\n");
    server.clear_requests();
    auto outcome = fire(*executor());
    EXPECT_EQ(outcome.ok, !error_on_timeout) << outcome.error;
    if (error_on_timeout) {
      EXPECT_NE(outcome.error.find("failed to determine status of the triggered resource"),
                std::string::npos)
        << outcome.error;
    }
    EXPECT_EQ(server.requests("GET", "/api/v1/namespaces/default/configmaps/never").size(), 3u)
      << "one read per backoff step";
  }
}
