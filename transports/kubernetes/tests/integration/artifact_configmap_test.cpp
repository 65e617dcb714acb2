// The configmap source against the test Kubernetes API server: the key's value in the
// sensor's namespace (data or binaryData), and each failure an error naming the field.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "kube/api_server.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;

const std::string at = "spec.triggers[0].template.k8s.source";
const std::string workflow = "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
                             "metadata:\n  generateName: hello-world-\n";

struct configmap_test : ::testing::Test {
  test::kube::api_server server;
  api_client client{config_of(server)};

  static cluster_config config_of(const test::kube::api_server& server) {
    cluster_config config;
    config.server = server.url();
    return config;
  }

  void SetUp() override {
    server.put(
      json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "argo-events"}}}});
    server.put(json{{"apiVersion", "v1"},
                    {"kind", "ConfigMap"},
                    {"metadata", {{"name", "workflow-cm"}, {"namespace", "argo-events"}}},
                    {"data", {{"wf", workflow}}},
                    {"binaryData", {{"wf-binary", dsl::base64_encode(workflow)}}}});
  }

  fetch_options options(const std::string& ns = "argo-events") {
    fetch_options out;
    out.path = at;
    out.client = &client;
    out.namespace_name = ns;
    out.timeout = std::chrono::seconds(10);
    return out;
  }

  static artifact_location location(const std::string& name, const std::string& key) {
    artifact_location loc;
    loc.configmap = configmap_key_selector{name, key};
    return loc;
  }

  std::string error_of(const artifact_location& loc, const fetch_options& opts) {
    try {
      fetch_artifact(loc, opts);
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(configmap_test, the_key_of_the_config_map_in_the_sensor_namespace_is_the_object) {
  auto object = json::parse(fetch_artifact(location("workflow-cm", "wf"), options()));
  EXPECT_EQ(object["kind"], "Workflow");
  EXPECT_EQ(object["metadata"]["generateName"], "hello-world-");
  EXPECT_FALSE(
    server.requests("GET", "/api/v1/namespaces/argo-events/configmaps/workflow-cm").empty());
}

TEST_F(configmap_test, a_binary_data_key_is_read_too) {
  auto object = json::parse(fetch_artifact(location("workflow-cm", "wf-binary"), options()));
  EXPECT_EQ(object["kind"], "Workflow");
}

TEST_F(configmap_test, without_a_namespace_the_client_default_is_used) {
  server.put(json{{"apiVersion", "v1"},
                  {"kind", "ConfigMap"},
                  {"metadata", {{"name", "workflow-cm"}, {"namespace", "default"}}},
                  {"data", {{"wf", "kind: Workflow\nmetadata: {name: from-default}\n"}}}});
  auto object = json::parse(fetch_artifact(location("workflow-cm", "wf"), options("")));
  EXPECT_EQ(object["metadata"]["name"], "from-default");
}

TEST_F(configmap_test, a_missing_key_is_an_error_at_key) {
  EXPECT_EQ(error_of(location("workflow-cm", "absent"), options()),
            at + ".configmap.key: config map argo-events/workflow-cm has no key \"absent\"");
}

TEST_F(configmap_test, a_missing_config_map_is_an_error_at_name_with_the_api_message) {
  auto message = error_of(location("absent", "wf"), options());
  EXPECT_EQ(message.rfind(at
                            + ".configmap.name: cannot read config map argo-events/absent: "
                              "HTTP 404",
                          0),
            0u)
    << message;
}

TEST_F(configmap_test, a_forbidden_read_is_an_error_with_the_api_message) {
  server.forbid("get", "configmaps");
  auto message = error_of(location("workflow-cm", "wf"), options());
  EXPECT_NE(message.find("HTTP 403"), std::string::npos) << message;
}

TEST_F(configmap_test, a_value_over_the_limit_is_refused) {
  auto opts = options();
  opts.max_bytes = 16;
  EXPECT_EQ(error_of(location("workflow-cm", "wf"), opts),
            at + ".configmap: the artifact is larger than the limit of 16 bytes");
}

} // namespace
} // namespace ganglion::kubernetes::detail
