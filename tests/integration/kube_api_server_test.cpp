// The test Kubernetes API server over plain HTTP: discovery, CRUD, 409s, generateName, each
// patch type, the status subresource, and its test controls (faults, hooks, request log).

#include <algorithm>

#include <gtest/gtest.h>

#include "kube/api_server.hpp"
#include "kube_test_client.hpp"

using namespace ganglion::test::kube;

namespace {

json config_map(const std::string& name, json data = {{"a", "1"}}) {
  return {
    {"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", data}};
}

json sensor(const std::string& name) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "Sensor"},
          {"metadata", {{"name", name}}},
          {"spec", {{"triggers", json::array()}}},
          {"status", {{"phase", "from-client"}}}};
}

const std::string cms = "/api/v1/namespaces/default/configmaps";
const std::string sensors = "/apis/argoproj.io/v1alpha1/namespaces/ns1/sensors";

const json* find_resource(const json& list, const std::string& name) {
  for (const auto& r : list["resources"])
    if (r["name"] == name)
      return &r;
  return nullptr;
}

} // namespace

TEST(kube_api_server, discovery_lists_core_groups_and_custom_resources) {
  api_server server;
  kube_client client{server.url()};
  auto versions = client.get("/api").object();
  EXPECT_EQ(versions["kind"], "APIVersions");
  EXPECT_EQ(versions["versions"], json::array({"v1"}));

  auto core = client.get("/api/v1").object();
  EXPECT_EQ(core["groupVersion"], "v1");
  const json* pods = find_resource(core, "pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ((*pods)["kind"], "Pod");
  EXPECT_EQ((*pods)["singularName"], "pod");
  EXPECT_TRUE((*pods)["namespaced"].get<bool>());
  EXPECT_NE(std::find((*pods)["verbs"].begin(), (*pods)["verbs"].end(), "watch"),
            (*pods)["verbs"].end());
  EXPECT_NE(find_resource(core, "pods/status"), nullptr);
  EXPECT_EQ(find_resource(core, "configmaps/status"), nullptr);
  EXPECT_FALSE((*find_resource(core, "namespaces"))["namespaced"].get<bool>());

  auto groups = client.get("/apis").object();
  EXPECT_EQ(groups["kind"], "APIGroupList");
  std::vector<std::string> names;
  for (const auto& g : groups["groups"])
    names.push_back(g["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"apps", "batch", "apiextensions.k8s.io", "argoproj.io"}));

  auto argo = client.get("/apis/argoproj.io/v1alpha1").object();
  EXPECT_EQ(argo["groupVersion"], "argoproj.io/v1alpha1");
  EXPECT_NE(find_resource(argo, "sensors/status"), nullptr);
  EXPECT_EQ(find_resource(argo, "workflows/status"), nullptr);
  EXPECT_FALSE((*find_resource(argo, "clusterworkflowtemplates"))["namespaced"].get<bool>());
  EXPECT_EQ(client.get("/apis/example.com/v1").status, 404);

  server.add_resource("example.com", "v1", "Widget", "widgets", true, true);
  auto added = client.get("/apis/example.com/v1").object();
  EXPECT_NE(find_resource(added, "widgets/status"), nullptr);
  EXPECT_EQ(
    client
      .post("/apis/example.com/v1/namespaces/default/widgets",
            {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", "w"}}}})
      .status,
    201);
  server.remove_resource("example.com", "v1", "widgets");
  EXPECT_EQ(client.get("/apis/example.com/v1").status, 404);
  EXPECT_EQ(client.get("/apis/example.com/v1/namespaces/default/widgets/w").status, 404);
}

TEST(kube_api_server, create_fills_metadata_and_get_returns_it) {
  api_server server;
  kube_client client{server.url()};
  auto created = client.post(cms, config_map("one"));
  ASSERT_EQ(created.status, 201) << created.body;
  auto object = created.object();
  EXPECT_EQ(object["metadata"]["namespace"], "default");
  EXPECT_EQ(object["metadata"]["uid"].get<std::string>().size(), 36u);
  EXPECT_EQ(object["metadata"]["resourceVersion"], server.resource_version());
  EXPECT_EQ(object["metadata"]["generation"], 1);
  EXPECT_TRUE(object["metadata"].contains("creationTimestamp"));
  EXPECT_EQ(client.get(cms + "/one").object(), object);
  EXPECT_EQ(server.get("v1", "ConfigMap", "default", "one"), object);

  auto again = client.post(cms, config_map("one"));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.object()["kind"], "Status");
  EXPECT_EQ(again.object()["reason"], "AlreadyExists");
  EXPECT_EQ(again.object()["message"], "configmaps \"one\" already exists");

  auto missing = client.get(cms + "/nope").object();
  EXPECT_EQ(missing["code"], 404);
  EXPECT_EQ(missing["reason"], "NotFound");
  EXPECT_EQ(missing["message"], "configmaps \"nope\" not found");
  EXPECT_EQ(client.get("/apis/apps/v1/namespaces/default/deployments/d").object()["message"],
            "deployments.apps \"d\" not found");
}

TEST(kube_api_server, create_rejects_bad_bodies_with_the_api_errors) {
  api_server server;
  kube_client client{server.url()};
  auto other_ns = config_map("x");
  other_ns["metadata"]["namespace"] = "other";
  auto mismatch = client.post(cms, other_ns);
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_EQ(mismatch.object()["message"],
            "the namespace of the provided object does not match the namespace sent on the "
            "request");

  auto unnamed = client.post(cms, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}});
  EXPECT_EQ(unnamed.status, 422);
  EXPECT_EQ(unnamed.object()["reason"], "Invalid");
  EXPECT_EQ(unnamed.object()["message"],
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
            "required");
  EXPECT_EQ(client.post(cms, config_map("Bad_Name")).status, 422);

  auto wrong_kind = config_map("x");
  wrong_kind["kind"] = "Secret";
  EXPECT_EQ(client.post(cms, wrong_kind).status, 400);
  auto wrong_version = config_map("x");
  wrong_version["apiVersion"] = "apps/v1";
  EXPECT_EQ(client.post(cms, wrong_version).status, 400);
  EXPECT_EQ(client.request("POST", cms, "{not json").status, 400);
  EXPECT_FALSE(server.get("v1", "configmaps", "default", "x"));

  EXPECT_EQ(client.get(cms + "/%FF%FE").object()["reason"], "NotFound");
  EXPECT_EQ(client.patch(cms + "/x?fieldManager=m", "a: [", "application/apply-patch+yaml").status,
            400);
  EXPECT_EQ(client.patch(cms + "/x?fieldManager=m", "- 1", "application/apply-patch+yaml").status,
            400);
  EXPECT_EQ(client.request("POST", cms, "[1]").status, 400);
  EXPECT_EQ(client.get(cms + "?limit=x").status, 400);
  EXPECT_EQ(client.get(cms + "?watch=true&resourceVersion=abc").status, 400);
  EXPECT_EQ(client.request("HEAD", cms).status, 405);
  EXPECT_EQ(client.get("/nowhere").status, 404);
  EXPECT_EQ(client.get("/api").status, 200);
}

TEST(kube_api_server, generate_name_appends_five_random_characters) {
  api_server server;
  kube_client client{server.url()};
  json workflow = {{"apiVersion", "argoproj.io/v1alpha1"},
                   {"kind", "Workflow"},
                   {"metadata", {{"generateName", "hello-"}}},
                   {"spec", {{"entrypoint", "main"}}}};
  auto path = "/apis/argoproj.io/v1alpha1/namespaces/argo/workflows";
  auto first = client.post(path, workflow).object()["metadata"]["name"].get<std::string>();
  auto second = client.post(path, workflow).object()["metadata"]["name"].get<std::string>();
  EXPECT_EQ(first.size(), 11u);
  EXPECT_EQ(first.rfind("hello-", 0), 0u);
  EXPECT_NE(first, second);
  EXPECT_EQ(server.list("argoproj.io/v1alpha1", "Workflow", "argo").size(), 2u);
}

TEST(kube_api_server, put_replaces_and_conflicts_on_a_stale_resource_version) {
  api_server server;
  kube_client client{server.url()};
  auto created = client.post(cms, config_map("c")).object();
  auto changed = created;
  changed["data"]["a"] = "2";
  auto updated = client.put(cms + "/c", changed);
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.object()["data"]["a"], "2");
  EXPECT_NE(updated.object()["metadata"]["resourceVersion"],
            created["metadata"]["resourceVersion"]);
  EXPECT_EQ(updated.object()["metadata"]["uid"], created["metadata"]["uid"]);

  auto stale = client.put(cms + "/c", changed);
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(stale.object()["reason"], "Conflict");
  EXPECT_EQ(stale.object()["message"],
            "Operation cannot be fulfilled on configmaps \"c\": the object has been modified; "
            "please apply your changes to the latest version and try again");
  EXPECT_EQ(client.put(cms + "/absent", config_map("absent")).status, 404);
  EXPECT_EQ(client.put(cms + "/c", config_map("other")).status, 400);

  auto s = client.post(sensors, sensor("s")).object();
  s["metadata"].erase("resourceVersion");
  EXPECT_EQ(client.put(sensors + "/s", s).status, 422);
}

TEST(kube_api_server, merge_json_and_strategic_patches_change_the_object) {
  api_server server;
  kube_client client{server.url()};
  auto labelled = config_map("p");
  labelled["metadata"]["labels"] = {{"keep", "yes"}, {"drop", "yes"}};
  client.post(cms, labelled);

  auto merged = client.patch(cms + "/p", R"({"metadata":{"labels":{"drop":null,"new":"1"}}})",
                             "application/merge-patch+json");
  ASSERT_EQ(merged.status, 200) << merged.body;
  EXPECT_EQ(merged.object()["metadata"]["labels"], json({{"keep", "yes"}, {"new", "1"}}));

  auto patched = client.patch(cms + "/p",
                              R"([{"op":"test","path":"/data/a","value":"1"},
                                  {"op":"replace","path":"/data/a","value":"9"}])",
                              "application/json-patch+json");
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_EQ(patched.object()["data"]["a"], "9");
  auto failed = client.patch(cms + "/p", R"([{"op":"test","path":"/data/a","value":"1"}])",
                             "application/json-patch+json");
  EXPECT_EQ(failed.status, 422);
  EXPECT_EQ(client.patch(cms + "/p", "{", "application/merge-patch+json").status, 400);
  EXPECT_EQ(client.patch(cms + "/absent", "{}", "application/merge-patch+json").status, 404);
  auto unsupported = client.patch(cms + "/p", "{}", "text/plain");
  EXPECT_EQ(unsupported.status, 415);
  EXPECT_EQ(unsupported.object()["reason"], "UnsupportedMediaType");

  json deployment = {
    {"apiVersion", "apps/v1"},
    {"kind", "Deployment"},
    {"metadata", {{"name", "d"}}},
    {"spec",
     {{"template",
       {{"spec",
         {{"containers",
           {{{"name", "main"}, {"image", "a:1"}, {"env", {{{"name", "X"}, {"value", "1"}}}}},
            {{"name", "side"}, {"image", "b:1"}}}}}}}}}}};
  auto deployments = "/apis/apps/v1/namespaces/default/deployments";
  ASSERT_EQ(client.post(deployments, deployment).status, 201);
  auto strategic = client.patch(std::string(deployments) + "/d",
                                R"({"spec":{"template":{"spec":{"containers":[
        {"name":"main","image":"a:2","env":[{"name":"Y","value":"2"}]},
        {"name":"side","$patch":"delete"}]}}}})",
                                "application/strategic-merge-patch+json");
  ASSERT_EQ(strategic.status, 200) << strategic.body;
  auto containers = strategic.object()["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 1u);
  EXPECT_EQ(containers[0]["image"], "a:2");
  EXPECT_EQ(containers[0]["env"], json::parse(R"([{"name":"X","value":"1"},
                                                 {"name":"Y","value":"2"}])"));
  EXPECT_EQ(strategic.object()["metadata"]["generation"], 2);
}

TEST(kube_api_server, apply_patch_creates_then_merges_and_needs_a_field_manager) {
  api_server server;
  kube_client client{server.url()};
  std::string yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n"
                     "data:\n  a: \"1\"\n  n: 5\n";
  auto no_manager = client.patch(cms + "/applied", yaml, "application/apply-patch+yaml");
  EXPECT_EQ(no_manager.status, 422);
  auto created =
    client.patch(cms + "/applied?fieldManager=test", yaml, "application/apply-patch+yaml");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.object()["data"], json({{"a", "1"}, {"n", 5}}));
  auto merged = client.patch(cms + "/applied?fieldManager=test",
                             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n"
                             "data:\n  b: two\n",
                             "application/apply-patch+yaml");
  ASSERT_EQ(merged.status, 200) << merged.body;
  EXPECT_EQ(merged.object()["data"], json({{"a", "1"}, {"b", "two"}, {"n", 5}}));
  EXPECT_EQ(client
              .patch(cms + "/applied?fieldManager=test", "apiVersion: v1\nkind: Secret\n",
                     "application/apply-patch+yaml")
              .status,
            400);
}

TEST(kube_api_server, status_subresource_changes_only_status) {
  api_server server;
  kube_client client{server.url()};
  auto created = client.post(sensors, sensor("s")).object();
  EXPECT_FALSE(created.contains("status"));
  EXPECT_EQ(created["metadata"]["namespace"], "ns1");

  auto with_status = created;
  with_status["status"] = {{"phase", "Running"}};
  with_status["spec"]["triggers"] = json::array({{{"template", {{"name", "t"}}}}});
  auto status_put = client.put(sensors + "/s/status", with_status);
  ASSERT_EQ(status_put.status, 200) << status_put.body;
  EXPECT_EQ(status_put.object()["status"]["phase"], "Running");
  EXPECT_EQ(status_put.object()["spec"]["triggers"], json::array());
  EXPECT_EQ(status_put.object()["metadata"]["generation"], 1);

  auto main_patch = client.patch(sensors + "/s", R"({"spec":{"x":1},"status":{"phase":"Ignored"}})",
                                 "application/merge-patch+json");
  EXPECT_EQ(main_patch.object()["status"]["phase"], "Running");
  EXPECT_EQ(main_patch.object()["spec"]["x"], 1);
  EXPECT_EQ(main_patch.object()["metadata"]["generation"], 2);

  auto status_patch = client.patch(sensors + "/s/status",
                                   R"({"spec":{"x":2},"status":{"conditions":[{"type":"Deployed",
                                       "status":"True"}]}})",
                                   "application/merge-patch+json");
  ASSERT_EQ(status_patch.status, 200) << status_patch.body;
  EXPECT_EQ(status_patch.object()["spec"]["x"], 1);
  EXPECT_EQ(status_patch.object()["status"]["conditions"][0]["type"], "Deployed");
  EXPECT_EQ(client.get(sensors + "/s/status").object()["status"]["phase"], "Running");
  EXPECT_EQ(client.get(cms + "/x/status").status, 404);
  EXPECT_EQ(client.put(sensors + "/absent/status", sensor("absent")).status, 404);
}

TEST(kube_api_server, delete_returns_the_object_then_404) {
  api_server server;
  kube_client client{server.url()};
  client.post(cms, config_map("gone"));
  auto deleted = client.remove(cms + "/gone");
  ASSERT_EQ(deleted.status, 200);
  EXPECT_EQ(deleted.object()["metadata"]["name"], "gone");
  EXPECT_EQ(client.remove(cms + "/gone").object()["message"], "configmaps \"gone\" not found");
  EXPECT_FALSE(server.get("v1", "ConfigMap", "default", "gone"));
}

TEST(kube_api_server, cluster_scoped_resources_have_no_namespace) {
  api_server server;
  kube_client client{server.url()};
  auto path = "/apis/argoproj.io/v1alpha1/clusterworkflowtemplates";
  json body = {{"apiVersion", "argoproj.io/v1alpha1"},
               {"kind", "ClusterWorkflowTemplate"},
               {"metadata", {{"name", "cwt"}}}};
  auto created = client.post(path, body);
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_FALSE(created.object()["metadata"].contains("namespace"));
  EXPECT_EQ(client.get(std::string(path) + "/cwt").status, 200);
  EXPECT_EQ(client
              .get("/apis/argoproj.io/v1alpha1/namespaces/default/clusterworkflowtemplates"
                   "/cwt")
              .status,
            404);
  EXPECT_EQ(client.get("/api/v1/namespaces/default").object()["status"]["phase"], "Active");
  EXPECT_EQ(client.get("/api/v1/pods/p").status, 404);
}

TEST(kube_api_server, fail_next_and_forbid_answer_like_the_api) {
  api_server server;
  kube_client client{server.url()};
  server.fail_next(1, 429, 2);
  auto limited = client.get(cms);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.headers["retry-after"], "2");
  EXPECT_EQ(limited.object()["reason"], "TooManyRequests");
  EXPECT_EQ(limited.object()["details"]["retryAfterSeconds"], 2);
  EXPECT_EQ(client.get(cms).status, 200);

  server.fail_next(1, 500, 0, "/apis");
  EXPECT_EQ(client.get(cms).status, 200);
  EXPECT_EQ(client.get("/apis").status, 500);

  server.forbid("create", "configmaps");
  auto denied = client.post(cms, config_map("f"));
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.object()["reason"], "Forbidden");
  EXPECT_EQ(denied.object()["message"],
            "configmaps is forbidden: User \"system:anonymous\" cannot create resource "
            "\"configmaps\" in API group \"\" in the namespace \"default\"");
  EXPECT_EQ(client.get(cms).status, 200);
  server.forbid("*", "sensors/status");
  EXPECT_EQ(client.get(sensors + "/s/status").status, 403);
  server.allow_all();
  EXPECT_EQ(client.post(cms, config_map("f")).status, 201);
}

TEST(kube_api_server, a_write_hook_emulates_a_controller) {
  api_server server;
  kube_client client{server.url()};
  server.on_write("v1", "pods", [&](const write_event& e) {
    if (e.verb == "create")
      server.update("v1", "Pod", "default", e.object["metadata"]["name"].get<std::string>(),
                    [](json& pod) {
                      pod["metadata"]["labels"]["ready"] = "true";
                      pod["status"]["phase"] = "Running";
                    });
  });
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "i"}}}}}}};
  ASSERT_EQ(client.post("/api/v1/namespaces/default/pods", pod).status, 201);
  auto running = server.wait_for_object("v1", "Pod", "default", "p", [](const json& p) {
    return p.contains("status") && p["status"]["phase"] == "Running";
  });
  ASSERT_TRUE(running);
  EXPECT_EQ((*running)["metadata"]["labels"]["ready"], "true");
  EXPECT_EQ(client.get("/api/v1/namespaces/default/pods/p").object()["status"]["phase"], "Running");
}

TEST(kube_api_server, logs_requests_and_keeps_connections_alive) {
  api_server server;
  kube_client client{server.url()};
  client.get("/api");
  auto second = client.patch(cms + "/x?fieldManager=m", "{}", "application/merge-patch+json");
  EXPECT_EQ(second.new_connections, 0);
  auto patches = server.requests("PATCH", cms);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_EQ(patches[0].target, cms + "/x?fieldManager=m");
  EXPECT_EQ(patches[0].content_type, "application/merge-patch+json");
  EXPECT_EQ(patches[0].status, 404);
  EXPECT_TRUE(patches[0].authenticated);
  EXPECT_TRUE(server.wait_for_request([](const request_record& r) { return r.target == "/api"; }));
  server.clear_requests();
  EXPECT_TRUE(server.requests().empty());
}

TEST(kube_api_server, direct_put_update_and_remove_keep_status_and_metadata) {
  api_server server;
  auto stored = server.put(sensor("direct"));
  EXPECT_EQ(stored["metadata"]["namespace"], "default");
  EXPECT_EQ(stored["status"]["phase"], "from-client");
  auto updated = server.update("argoproj.io/v1alpha1", "sensors", "default", "direct",
                               [](json& s) { s["status"]["phase"] = "Done"; });
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["metadata"]["uid"], stored["metadata"]["uid"]);
  EXPECT_EQ((*updated)["status"]["phase"], "Done");
  EXPECT_FALSE(server.update("argoproj.io/v1alpha1", "Sensor", "default", "x", [](json&) {}));
  EXPECT_TRUE(server.remove("argoproj.io/v1alpha1", "Sensor", "default", "direct"));
  EXPECT_TRUE(server.wait_for_absent("argoproj.io/v1alpha1", "Sensor", "default", "direct"));
  EXPECT_THROW(server.put({{"apiVersion", "v1"}, {"kind", "Nope"}, {"metadata", {{"name", "n"}}}}),
               std::invalid_argument);
}
