// api_client::find_resource against the test API server's discovery.

#include <algorithm>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::api_client;
using kubernetes::client_options;
using kubernetes::cluster_config;
namespace kube = test::kube;

namespace {

cluster_config config_for(const kube::api_server& server) {
  cluster_config c;
  c.server = server.url();
  c.origin = "test";
  return c;
}

/// Requests to discovery paths so far.
std::size_t discovery_requests(const kube::api_server& server) {
  std::size_t n = 0;
  for (const auto& r : server.requests("GET", "")) {
    auto path = r.target.substr(0, r.target.find('?'));
    bool discovery =
      path == "/api" || path == "/apis" || path == "/api/v1"
      || (std::count(path.begin(), path.end(), '/') == 3 && path.starts_with("/apis/"));
    n += discovery ? 1 : 0;
  }
  return n;
}

} // namespace

TEST(kubernetes_discovery, core_and_group_resources) {
  kube::api_server server;
  server.add_resource("example.com", "v1", "Widget", "widgets", false, true);
  api_client client{config_for(server)};
  auto configmaps = client.find_resource("v1", "ConfigMap");
  ASSERT_TRUE(configmaps);
  EXPECT_EQ(configmaps->name, "configmaps");
  EXPECT_EQ(configmaps->group, "");
  EXPECT_EQ(configmaps->version, "v1");
  EXPECT_TRUE(configmaps->namespaced);
  EXPECT_FALSE(configmaps->has_status);
  auto widgets = client.find_resource("example.com/v1", "Widget");
  ASSERT_TRUE(widgets);
  EXPECT_EQ(widgets->name, "widgets");
  EXPECT_EQ(widgets->api_version(), "example.com/v1");
  EXPECT_FALSE(widgets->namespaced);
  EXPECT_TRUE(widgets->has_status);
  EXPECT_EQ(api_client::path_of(*widgets, "default", "w"), "/apis/example.com/v1/widgets/w");
  auto workflows = client.find_resource("argoproj.io/v1alpha1", "Workflow");
  ASSERT_TRUE(workflows);
  EXPECT_EQ(workflows->name, "workflows");
}

TEST(kubernetes_discovery, only_the_group_version_asked_for_is_fetched_and_then_cached) {
  kube::api_server server;
  api_client client{config_for(server)};
  ASSERT_TRUE(client.find_resource("apps/v1", "Deployment"));
  EXPECT_TRUE(server.requests("GET", "/apis/batch").empty());
  EXPECT_EQ(server.requests("GET", "/apis/apps/v1").size(), 1u);
  server.clear_requests();
  ASSERT_TRUE(client.find_resource("apps/v1", "Deployment"));
  EXPECT_FALSE(client.find_resource("apps/v1", "NotServed")); // a miss within discovery_refresh
  EXPECT_EQ(discovery_requests(server), 0u);
}

TEST(kubernetes_discovery, what_the_server_does_not_serve) {
  kube::api_server server;
  api_client client{config_for(server)};
  EXPECT_FALSE(client.find_resource("v1", "Nonexistent"));
  EXPECT_FALSE(client.find_resource("nowhere.io/v1", "Thing"));
  EXPECT_FALSE(client.find_resource("apps/v9", "Deployment"));
  EXPECT_THROW(client.find_resource("a/b/c", "X"), std::runtime_error);
}

TEST(kubernetes_discovery, a_miss_discovers_again_at_most_once_per_refresh_interval) {
  kube::api_server server;
  api_client client{config_for(server), client_options{.discovery_refresh = 2s}};
  EXPECT_FALSE(client.find_resource("example.com/v1", "Widget"));
  server.add_resource("example.com", "v1", "Widget", "widgets");
  server.clear_requests();
  EXPECT_FALSE(client.find_resource("example.com/v1", "Widget"));
  EXPECT_EQ(discovery_requests(server), 0u);
  EXPECT_TRUE(
    test::eventually([&] { return client.find_resource("example.com/v1", "Widget").has_value(); }));
  auto rediscoveries = discovery_requests(server);
  EXPECT_GE(rediscoveries, 1u);
  EXPECT_LE(rediscoveries, 2u); // /apis and /apis/example.com/v1, once
}

TEST(kubernetes_discovery, a_failed_discovery_throws_with_the_apis_message) {
  kube::api_server server;
  api_client client{config_for(server)};
  server.fail_next(1, 503, 0, "/apis");
  try {
    client.find_resource("apps/v1", "Deployment");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("Kubernetes discovery /apis: HTTP 503", 0), 0u)
      << e.what();
  }
  EXPECT_TRUE(client.find_resource("apps/v1", "Deployment"));
}
