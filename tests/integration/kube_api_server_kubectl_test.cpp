// What kubectl asks the test Kubernetes API server, sent with libcurl: discovery with short
// names, the OpenAPI documents `kubectl apply` reads before it validates, CRDs that make their
// kind served, client-side apply (GET, then POST or PATCH with the last-applied annotation)
// and server-side apply.

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "kube/api_server.hpp"
#include "kube_test_client.hpp"

using namespace ganglion::test::kube;

namespace {

const std::string crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

std::string read_text(const std::string& path) {
  std::ifstream in{path};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const json* find_resource(const json& list, const std::string& name) {
  for (const auto& r : list["resources"])
    if (r["name"] == name)
      return &r;
  return nullptr;
}

json short_names(const json& list, const std::string& name) {
  const json* resource = find_resource(list, name);
  return resource && resource->contains("shortNames") ? (*resource)["shortNames"] : json();
}

const char* const widget_crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget, shortNames: [wd]}
  scope: Namespaced
  versions:
    - name: v1beta1
      served: true
      storage: false
    - name: v1
      served: true
      storage: true
      subresources: {status: {}}
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";

} // namespace

TEST(kube_api_server_kubectl, discovery_gives_the_short_names_kubectl_resolves) {
  api_server server;
  kube_client client{server.url()};
  auto core = client.get("/api/v1").object();
  EXPECT_EQ(short_names(core, "pods"), json::array({"po"}));
  EXPECT_EQ(short_names(core, "configmaps"), json::array({"cm"}));
  EXPECT_EQ(short_names(core, "services"), json::array({"svc"}));
  EXPECT_FALSE(find_resource(core, "secrets")->contains("shortNames"));
  EXPECT_EQ(short_names(client.get("/apis/apps/v1").object(), "deployments"),
            json::array({"deploy"}));
  auto argo = client.get("/apis/argoproj.io/v1alpha1").object();
  EXPECT_EQ(short_names(argo, "workflows"), json::array({"wf"}));
  EXPECT_EQ(short_names(argo, "eventsources"), json::array({"es"}));
  EXPECT_EQ(short_names(argo, "sensors"), json::array({"sn"}));
  EXPECT_EQ(short_names(argo, "eventbus"), json::array({"eb"}));
  auto crd = client.get("/apis/apiextensions.k8s.io/v1").object();
  EXPECT_EQ(short_names(crd, "customresourcedefinitions"), json::array({"crd", "crds"}));
  EXPECT_FALSE((*find_resource(crd, "customresourcedefinitions"))["namespaced"].get<bool>());
}

TEST(kube_api_server_kubectl, openapi_v3_says_each_kind_takes_field_validation) {
  api_server server;
  kube_client client{server.url()};
  auto index = client.get("/openapi/v3");
  ASSERT_EQ(index.status, 200) << index.body;
  auto paths = index.object()["paths"];
  ASSERT_TRUE(paths.contains("api/v1"));
  ASSERT_TRUE(paths.contains("apis/argoproj.io/v1alpha1"));
  std::string url = paths["apis/argoproj.io/v1alpha1"]["serverRelativeURL"];
  EXPECT_EQ(url.rfind("/openapi/v3/apis/argoproj.io/v1alpha1?hash=", 0), 0u) << url;

  auto document = client.get(url);
  ASSERT_EQ(document.status, 200) << document.body;
  auto patch =
    document.object()["paths"]["/apis/argoproj.io/v1alpha1/namespaces/{namespace}/workflows/{name}"]
                     ["patch"];
  EXPECT_EQ(patch["x-kubernetes-group-version-kind"],
            json({{"group", "argoproj.io"}, {"version", "v1alpha1"}, {"kind", "Workflow"}}));
  EXPECT_EQ(patch["parameters"][0],
            json({{"name", "fieldValidation"}, {"in", "query"}, {"schema", {{"type", "string"}}}}));
  auto core = client.get("/openapi/v3/api/v1").object();
  EXPECT_TRUE(core["paths"].contains("/api/v1/namespaces/{name}"));
  EXPECT_EQ(client.get("/openapi/v3/apis/example.com/v1").status, 404);

  server.add_resource("example.com", "v1", "Widget", "widgets");
  auto changed = client.get("/openapi/v3").object()["paths"];
  ASSERT_TRUE(changed.contains("apis/example.com/v1"));
  EXPECT_EQ(changed["apis/argoproj.io/v1alpha1"], paths["apis/argoproj.io/v1alpha1"]);
}

TEST(kube_api_server_kubectl, openapi_v2_is_an_empty_document_in_protobuf_or_json) {
  api_server server;
  kube_client client{server.url()};
  auto protobuf = client.request("GET", "/openapi/v2", {}, {},
                                 "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
  ASSERT_EQ(protobuf.status, 200);
  EXPECT_EQ(protobuf.headers["content-type"],
            "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
  EXPECT_EQ(protobuf.body.substr(0, 5), std::string("\x0a\x03"
                                                    "2.0",
                                                    5));
  EXPECT_NE(protobuf.body.find("ganglion test API server"), std::string::npos);
  auto plain = client.get("/openapi/v2");
  ASSERT_EQ(plain.status, 200);
  EXPECT_EQ(plain.object()["swagger"], "2.0");
}

TEST(kube_api_server_kubectl, a_crd_makes_its_kind_served_until_it_is_deleted) {
  api_server server;
  kube_client client{server.url()};
  EXPECT_EQ(client.get("/apis/example.com/v1").status, 404);
  auto created = client.request("POST", crds, widget_crd, "application/yaml");
  ASSERT_EQ(created.status, 201) << created.body;
  auto conditions = created.object()["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[1]["type"], "Established");
  EXPECT_EQ(conditions[1]["status"], "True");
  EXPECT_EQ(created.object()["status"]["acceptedNames"]["kind"], "Widget");

  auto discovery = client.get("/apis/example.com/v1").object();
  EXPECT_EQ(short_names(discovery, "widgets"), json::array({"wd"}));
  EXPECT_NE(find_resource(discovery, "widgets/status"), nullptr);
  EXPECT_EQ(client.get("/apis/example.com/v1beta1").status, 404);
  auto widget = client.post("/apis/example.com/v1/namespaces/default/widgets",
                            {{"apiVersion", "example.com/v1"},
                             {"kind", "Widget"},
                             {"metadata", {{"name", "w"}}},
                             {"spec", {{"size", 3}}}});
  EXPECT_EQ(widget.status, 201) << widget.body;
  EXPECT_EQ(client.get(crds + "/widgets.example.com").object()["spec"]["group"], "example.com");

  EXPECT_EQ(client.remove(crds + "/widgets.example.com").status, 200);
  EXPECT_EQ(client.get("/apis/example.com/v1").status, 404);
  EXPECT_EQ(client.get("/apis/example.com/v1/namespaces/default/widgets/w").status, 404);
}

TEST(kube_api_server_kubectl, a_crd_with_a_wrong_name_or_no_scope_is_invalid) {
  api_server server;
  kube_client client{server.url()};
  std::string crd = widget_crd;
  auto wrong_name = crd;
  wrong_name.replace(wrong_name.find("widgets.example.com"), 19, "gadgets.example.com");
  auto refused = client.request("POST", crds, wrong_name, "application/yaml");
  EXPECT_EQ(refused.status, 422) << refused.body;
  EXPECT_EQ(refused.object()["reason"], "Invalid");
  auto no_scope = crd;
  no_scope.replace(no_scope.find("scope: Namespaced"), 17, "scope: Nowhere");
  EXPECT_EQ(client.request("POST", crds, no_scope, "application/yaml").status, 422);
  EXPECT_EQ(client.get("/apis/example.com/v1").status, 404);
}

TEST(kube_api_server_kubectl, the_crds_of_deploy_replace_the_built_in_argo_resources) {
  api_server server;
  kube_client client{server.url()};
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Sensor"},
              {"metadata", {{"name", "kept"}, {"namespace", "default"}}},
              {"spec", {{"triggers", json::array()}}}});
  for (const char* file : {"eventsource", "sensor", "eventbus"}) {
    auto text = read_text(std::string(GANGLION_SOURCE_DIR) + "/deploy/crds/" + file + ".yaml");
    auto created = client.request("POST", crds, text, "application/yaml");
    EXPECT_EQ(created.status, 201) << file << ": " << created.body;
  }
  auto argo = client.get("/apis/argoproj.io/v1alpha1").object();
  EXPECT_EQ(short_names(argo, "sensors"), json::array({"sn"}));
  EXPECT_NE(find_resource(argo, "sensors/status"), nullptr);
  EXPECT_NE(find_resource(argo, "workflows"), nullptr);
  EXPECT_EQ(client.get("/apis/argoproj.io/v1alpha1/namespaces/default/sensors/kept").status, 200);
  EXPECT_EQ(client.get(crds).object()["items"].size(), 3u);
}

TEST(kube_api_server_kubectl, client_side_apply_creates_then_patches_with_its_annotation) {
  api_server server;
  kube_client client{server.url()};
  const std::string wfs = "/apis/argoproj.io/v1alpha1/namespaces/default/workflows";
  json applied = {{"apiVersion", "argoproj.io/v1alpha1"},
                  {"kind", "Workflow"},
                  {"metadata", {{"name", "hello"}, {"namespace", "default"}}},
                  {"spec", {{"entrypoint", "main"}}}};
  json sent = applied;
  sent["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
    applied.dump();
  EXPECT_EQ(client.get(wfs + "/hello").status, 404);
  auto created = client.request(
    "POST", wfs + "?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", sent.dump());
  ASSERT_EQ(created.status, 201) << created.body;

  json patch = {
    {"metadata",
     {{"annotations", {{"kubectl.kubernetes.io/last-applied-configuration", "{\"changed\":1}"}}}}},
    {"spec", {{"entrypoint", "other"}}}};
  auto patched =
    client.patch(wfs + "/hello?fieldManager=kubectl-client-side-apply&fieldValidation=Strict",
                 patch.dump(), "application/merge-patch+json");
  ASSERT_EQ(patched.status, 200) << patched.body;
  auto stored = server.get("argoproj.io/v1alpha1", "Workflow", "default", "hello");
  ASSERT_TRUE(stored);
  EXPECT_EQ((*stored)["spec"]["entrypoint"], "other");
  EXPECT_EQ(
    (*stored)["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
    "{\"changed\":1}");
  EXPECT_EQ((*stored)["metadata"]["generation"], 2);
}

TEST(kube_api_server_kubectl, server_side_apply_creates_with_kubectl_as_field_manager) {
  api_server server;
  kube_client client{server.url()};
  json cm = {{"apiVersion", "v1"},
             {"kind", "ConfigMap"},
             {"metadata", {{"name", "applied"}, {"namespace", "default"}}},
             {"data", {{"a", "1"}}}};
  auto created = client.patch("/api/v1/namespaces/default/configmaps/applied?fieldManager=kubectl&"
                              "fieldValidation=Strict&force=false",
                              cm.dump(), "application/apply-patch+yaml");
  ASSERT_EQ(created.status, 201) << created.body;
  cm["data"]["a"] = "2";
  auto changed = client.patch("/api/v1/namespaces/default/configmaps/applied?fieldManager=kubectl",
                              cm.dump(), "application/apply-patch+yaml");
  EXPECT_EQ(changed.status, 200);
  EXPECT_EQ(changed.object()["data"]["a"], "2");
}
