// The binary with a `resource` EventSource against the test Kubernetes API server: each change
// of a watched ConfigMap fires the sensor's HTTP trigger once with Argo's event data, objects
// that existed before do not fire with afterStart, and a resource the server does not serve is
// an Error in /v1/status while the rest runs.

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// The engine finds the test server through `--kubeconfig` (what cluster users pass).
std::vector<std::string> kubeconfig_args(const test::kube::api_server& server) {
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server.kubeconfig());
  return {"--kubeconfig", path};
}

/// EventSource `cluster` with event `configmaps` (ConfigMaps of `default`, `event_types`),
/// and Sensor `s` whose HTTP trigger posts the change's type and object name to `url`.
std::string manifests(const std::string& resource, const std::string& event_types,
                      const std::string& filter, const std::string& url) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: cluster
spec:
  resource:
    configmaps:
      namespace: default
      version: v1
      resource: {}
      eventTypes: {}
{}---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - {{name: d, eventSourceName: cluster, eventName: configmaps}}
  triggers:
    - template:
        name: to-sink
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: d, dataKey: type}}
              dest: type
            - src: {{dependencyName: d, dataKey: body.metadata.name}}
              dest: name
)",
                     resource, event_types, filter, url);
}

json configmap(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"data", {{"k", "1"}}}};
}

std::vector<std::string> posted(const test::http_sink& sink) {
  std::vector<std::string> out;
  for (const auto& r : sink.requests()) {
    auto body = json::parse(r.body, nullptr, false);
    out.push_back(body.is_object() ? body.value("type", "?") + " " + body.value("name", "?")
                                   : r.body);
  }
  return out;
}

} // namespace

TEST(e2e_kubernetes_resource, each_change_fires_the_trigger_once) {
  test::kube::api_server server;
  test::http_sink sink;
  server.put(configmap("before"));
  e2e::engine_options options;
  options.extra_args = kubeconfig_args(server);
  e2e::engine_process engine{
    manifests("configmaps", "[ADD, UPDATE, DELETE]", "      filter: {afterStart: true}\n",
              sink.url("/hook")),
    options};
  // creationTimestamp has whole seconds: wait for the next one so "after" counts as after.
  auto started = std::chrono::system_clock::now();
  ASSERT_TRUE(test::eventually(
    [&] { return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()) > started; }));
  server.put(configmap("after"));
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  server.update("v1", "ConfigMap", "default", "after", [](json& o) { o["data"]["k"] = "2"; });
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  server.remove("v1", "ConfigMap", "default", "after");
  ASSERT_TRUE(sink.wait_for(3, 10s)) << engine.output();
  EXPECT_EQ(posted(sink),
            (std::vector<std::string>{"ADD after", "UPDATE after", "DELETE after"}));
  EXPECT_TRUE(engine.wait_metric(e2e::triggers_fired("s", "to-sink", 3)));
}

TEST(e2e_kubernetes_resource, a_resource_the_server_does_not_serve_is_an_error_in_status) {
  test::kube::api_server server;
  test::http_sink sink;
  e2e::engine_options options;
  options.extra_args = kubeconfig_args(server);
  options.wait_ready = false;
  e2e::engine_process engine{manifests("widgets", "[ADD]", "", sink.url("/hook")), options};
  std::string status;
  ASSERT_TRUE(test::eventually(
    [&] {
      status = test::http_request("GET", engine.admin_url("/v1/status")).body;
      return status.find("\"phase\": \"Error\"") != std::string::npos;
    },
    20s))
    << status << engine.output();
  EXPECT_NE(status.find("does not serve resource \\\"widgets\\\" in v1"), std::string::npos)
    << status;
}
