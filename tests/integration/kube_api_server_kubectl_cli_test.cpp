// kubectl itself against the test Kubernetes API server: `kubectl apply` of deploy/crds/ and
// of a Workflow, `kubectl get` by short name, apply again, server-side apply. kubectl is
// `$GANGLION_KUBECTL`, else the first `kubectl` on PATH; the tests skip without one (Debian 12's
// is the package kubernetes-client).

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "files.hpp"
#include "kube/api_server.hpp"

using namespace ganglion::test::kube;

namespace {

std::string find_kubectl() {
  if (const char* given = std::getenv("GANGLION_KUBECTL"); given && *given)
    return given;
  const char* path = std::getenv("PATH");
  std::stringstream dirs{path ? path : ""};
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && ::access((dir + "/kubectl").c_str(), X_OK) == 0)
      return dir + "/kubectl";
  return {};
}

/// kubectl with a kubeconfig for `server` and a discovery cache of its own.
class kubectl_against {
public:
  explicit kubectl_against(const api_server& server)
    : binary_(find_kubectl()), dir_(ganglion::test::temp_dir()) {
    ganglion::test::write_file(dir_ + "/kubeconfig", server.kubeconfig());
  }

  bool found() const { return !binary_.empty(); }
  const std::string& dir() const { return dir_; }

  /// Runs `kubectl args...`; returns its exit code and output (stdout and stderr).
  std::pair<int, std::string> operator()(std::vector<std::string> args) const {
    std::vector<std::string> argv{binary_, "--kubeconfig", dir_ + "/kubeconfig", "--cache-dir",
                                  dir_ + "/cache"};
    argv.insert(argv.end(), args.begin(), args.end());
    ganglion::test::child_process process{argv};
    auto code = process.wait(std::chrono::seconds(60));
    return {code.value_or(-1), process.output()};
  }

private:
  std::string binary_;
  std::string dir_;
};

const char* const workflow = R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  name: hello
spec:
  entrypoint: main
  templates:
    - name: main
      container: {image: busybox, command: [echo, hello]}
)";

} // namespace

TEST(kube_api_server_kubectl_cli, apply_crds_and_a_workflow_then_get_by_short_name) {
  api_server server;
  kubectl_against kubectl{server};
  if (!kubectl.found())
    GTEST_SKIP() << "no kubectl (GANGLION_KUBECTL or PATH)";
  auto [code, out] = kubectl({"apply", "-f", std::string(GANGLION_SOURCE_DIR) + "/deploy/crds/"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("customresourcedefinition.apiextensions.k8s.io/eventsources.argoproj.io "
                     "created"),
            std::string::npos)
    << out;
  ASSERT_TRUE(
    server.get("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "sensors.argoproj.io"));

  ganglion::test::write_file(kubectl.dir() + "/wf.yaml", workflow);
  std::tie(code, out) = kubectl({"apply", "-f", kubectl.dir() + "/wf.yaml"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("workflow.argoproj.io/hello created"), std::string::npos) << out;
  auto stored = server.get("argoproj.io/v1alpha1", "Workflow", "default", "hello");
  ASSERT_TRUE(stored);
  EXPECT_TRUE((*stored)["metadata"]["annotations"].contains(
    "kubectl.kubernetes.io/last-applied-configuration"));

  std::tie(code, out) = kubectl({"get", "wf"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("hello"), std::string::npos) << out;
  std::tie(code, out) = kubectl({"get", "crd", "-o", "name"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("customresourcedefinition.apiextensions.k8s.io/sensors.argoproj.io"),
            std::string::npos)
    << out;

  std::string changed = workflow;
  changed.replace(changed.find("echo, hello"), 11, "echo, again");
  ganglion::test::write_file(kubectl.dir() + "/wf.yaml", changed);
  std::tie(code, out) = kubectl({"apply", "-f", kubectl.dir() + "/wf.yaml"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("workflow.argoproj.io/hello configured"), std::string::npos) << out;
  stored = server.get("argoproj.io/v1alpha1", "Workflow", "default", "hello");
  EXPECT_EQ((*stored)["spec"]["templates"][0]["container"]["command"][1], "again");

  std::tie(code, out) = kubectl({"delete", "wf", "hello"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_FALSE(server.get("argoproj.io/v1alpha1", "Workflow", "default", "hello"));
}

TEST(kube_api_server_kubectl_cli, apply_built_in_kinds_client_and_server_side) {
  api_server server;
  kubectl_against kubectl{server};
  if (!kubectl.found())
    GTEST_SKIP() << "no kubectl (GANGLION_KUBECTL or PATH)";
  ganglion::test::write_file(kubectl.dir() + "/cm.yaml",
                             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
                             "data:\n  a: \"1\"\n");
  auto [code, out] = kubectl({"apply", "-f", kubectl.dir() + "/cm.yaml"});
  ASSERT_EQ(code, 0) << out;
  ganglion::test::write_file(kubectl.dir() + "/cm.yaml",
                             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
                             "data:\n  a: \"2\"\n");
  std::tie(code, out) = kubectl({"apply", "-f", kubectl.dir() + "/cm.yaml"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("configmap/c configured"), std::string::npos) << out;
  EXPECT_EQ((*server.get("v1", "ConfigMap", "default", "c"))["data"]["a"], "2");

  ganglion::test::write_file(kubectl.dir() + "/ssa.yaml",
                             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n"
                             "data:\n  b: \"1\"\n");
  std::tie(code, out) = kubectl({"apply", "--server-side", "-f", kubectl.dir() + "/ssa.yaml"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("configmap/s serverside-applied"), std::string::npos) << out;
  EXPECT_TRUE(server.get("v1", "ConfigMap", "default", "s"));
  std::tie(code, out) = kubectl({"get", "cm", "-o", "jsonpath={.items[*].metadata.name}"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("c s"), std::string::npos) << out;
}
