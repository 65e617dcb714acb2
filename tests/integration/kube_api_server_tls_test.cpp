// The test Kubernetes API server over HTTPS with its own CA: bearer tokens, client
// certificates, and the kubeconfig it writes.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "kube/api_server.hpp"
#include "kube_test_client.hpp"

using namespace ganglion::test::kube;

TEST(kube_api_server_tls, a_bearer_token_is_required_over_tls) {
  server_options options;
  options.tls = true;
  options.tokens = {"secret-token"};
  api_server server{options};
  ASSERT_EQ(server.url().rfind("https://127.0.0.1:", 0), 0u);
  ASSERT_NE(server.ca_pem().find("BEGIN CERTIFICATE"), std::string::npos);

  kube_client anonymous{server.url(), {server.ca_pem()}};
  auto denied = anonymous.get("/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(denied.status, 401);
  EXPECT_EQ(denied.object()["reason"], "Unauthorized");
  kube_client wrong{server.url(), {server.ca_pem(), "other"}};
  EXPECT_EQ(wrong.get("/api").status, 401);
  kube_client right{server.url(), {server.ca_pem(), "secret-token"}};
  EXPECT_EQ(right.get("/api").status, 200);
  auto log = server.requests();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_FALSE(log[0].authenticated);
  EXPECT_FALSE(log[1].authenticated);
  EXPECT_TRUE(log[2].authenticated);

  kube_client untrusting{server.url()};
  auto unverified = untrusting.get("/api");
  EXPECT_EQ(unverified.status, 0);
  EXPECT_FALSE(unverified.error.empty());
}

TEST(kube_api_server_tls, a_client_certificate_signed_by_the_ca_authenticates) {
  server_options options;
  options.tls = true;
  options.require_client_certificate = true;
  api_server server{options};
  auto credentials = server.issue_client_certificate("alice", {"admins"});
  ASSERT_NE(credentials.key_pem.find("PRIVATE KEY"), std::string::npos);

  kube_client without{server.url(), {server.ca_pem()}};
  EXPECT_EQ(without.get("/api").status, 401);
  kube_client with{server.url(), {server.ca_pem(), "", credentials}};
  EXPECT_EQ(with.get("/api").status, 200);

  server.forbid("list", "pods");
  EXPECT_EQ(with.get("/api/v1/pods").object()["message"],
            "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" "
            "at the cluster scope");

  server_options other_options;
  other_options.tls = true;
  api_server other{other_options};
  kube_client foreign{server.url(), {server.ca_pem(), "", other.issue_client_certificate()}};
  EXPECT_EQ(foreign.get("/api").status, 401);
}

TEST(kube_api_server_tls, a_watch_streams_over_tls) {
  server_options options;
  options.tls = true;
  options.tokens = {"t"};
  api_server server{options};
  watch_stream watch{server.url() + "/apis/argoproj.io/v1alpha1/namespaces/argo/sensors"
                                    "?watch=true&resourceVersion=" + server.resource_version(),
                     {server.ca_pem(), "t"}};
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Sensor"},
              {"metadata", {{"name", "s"}, {"namespace", "argo"}}}});
  ASSERT_TRUE(watch.wait_for(1));
  EXPECT_EQ(watch.events()[0]["type"], "ADDED");
}

TEST(kube_api_server_tls, the_kubeconfig_reaches_the_server) {
  server_options options;
  options.tls = true;
  options.tokens = {"tok"};
  api_server server{options};
  auto config = YAML::Load(server.kubeconfig("tok", std::nullopt, "argo"));
  EXPECT_EQ(config["current-context"].as<std::string>(), "test");
  auto cluster = config["clusters"][0]["cluster"];
  EXPECT_EQ(cluster["server"].as<std::string>(), server.url());
  EXPECT_FALSE(cluster["certificate-authority-data"].as<std::string>().empty());
  EXPECT_EQ(config["users"][0]["user"]["token"].as<std::string>(), "tok");
  EXPECT_EQ(config["contexts"][0]["context"]["namespace"].as<std::string>(), "argo");

  auto with_certificate =
    YAML::Load(server.kubeconfig({}, server.issue_client_certificate("bob"), "default"));
  EXPECT_TRUE(with_certificate["users"][0]["user"]["client-certificate-data"].IsScalar());
  EXPECT_TRUE(with_certificate["users"][0]["user"]["client-key-data"].IsScalar());
}
