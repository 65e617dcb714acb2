// Kubernetes impersonation in the client (issue 31): a client acting as a service account sends
// Impersonate-User on requests and watches while sharing the engine's connections; the
// SelfSubjectAccessReview that chooses cluster mode's default; the names and paths the modes
// accept.

#include <memory>

#include "client/acting_identity.hpp"
#include "eventually.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/object_identity.hpp"
#include "ganglion/kubernetes/watch.hpp"
#include "identity_fixture.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::identity_mode;

namespace {

class object_identity_client : public test::identity_fixture {
protected:
  std::shared_ptr<kubernetes::api_client> engine_client() {
    kubernetes::cluster_config config;
    config.server = server.url();
    config.token = "engine-token";
    return std::make_shared<kubernetes::api_client>(config);
  }
};

} // namespace

TEST_F(object_identity_client, an_acting_client_impersonates_on_requests_and_watches) {
  server.grant_service_account("attacker", "default",
                               {{{""}, {"configmaps"}, {"get", "list", "watch"}}});
  server.put(configmap("attacker", "mine"));
  auto engine = engine_client();
  auto acting = kubernetes::api_client::acting_as(engine, attacker_default);
  EXPECT_EQ(acting->acting_user(), attacker_default);
  EXPECT_TRUE(engine->acting_user().empty());

  auto own = acting->call({.path = "/api/v1/namespaces/attacker/configmaps/mine"});
  EXPECT_EQ(own.status, 200) << own.message();
  auto stolen = acting->call({.path = "/api/v1/namespaces/victim/secrets/db"});
  EXPECT_EQ(stolen.status, 403);
  EXPECT_NE(stolen.message().find(attacker_default), std::string::npos) << stolen.message();

  kubernetes::watch_handlers handlers;
  std::atomic<int> lists{0};
  handlers.on_list = [&](std::vector<std::string>) { ++lists; };
  {
    kubernetes::watcher watch{*acting, "/api/v1/namespaces/attacker/configmaps", handlers};
    ASSERT_TRUE(test::eventually([&] {
      for (const auto& r : server.requests("GET", "/api/v1/namespaces/attacker/configmaps"))
        if (r.target.find("watch=1") != std::string::npos)
          return true;
      return false;
    }));
  }
  EXPECT_GE(lists.load(), 1);
  for (const auto& r : server.requests("", "/api/v1/namespaces/")) {
    EXPECT_EQ(r.user, attacker_default) << r.method << " " << r.target;
    EXPECT_EQ(r.impersonated_by, engine_user) << r.method << " " << r.target;
  }

  // The engine's own calls, on the same connections, stay its own.
  server.clear_requests();
  engine->call({.path = "/api/v1/namespaces/victim/secrets/db"});
  auto mine = server.requests("GET", "/api/v1/namespaces/victim/secrets/db");
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].user, engine_user);
  EXPECT_TRUE(mine[0].impersonated_by.empty());
}

TEST_F(object_identity_client, discovery_through_an_acting_client_is_the_engines) {
  auto acting = kubernetes::api_client::acting_as(engine_client(), attacker_default);
  auto found = acting->find_resource("v1", "Secret");
  ASSERT_TRUE(found);
  EXPECT_TRUE(found->namespaced);
  for (const auto& r : server.requests("GET", "/api"))
    EXPECT_EQ(r.user, engine_user) << r.target;
}

TEST_F(object_identity_client, acting_as_refuses_an_empty_user_or_a_header_injection) {
  auto engine = engine_client();
  EXPECT_THROW(kubernetes::api_client::acting_as(engine, ""), std::invalid_argument);
  EXPECT_THROW(kubernetes::api_client::acting_as(engine, "a\r\nImpersonate-Group: x"),
               std::invalid_argument);
}

TEST_F(object_identity_client, cluster_mode_impersonates_when_the_engine_may) {
  auto engine = engine_client();
  EXPECT_TRUE(kubernetes::may_impersonate(*engine, {}).allowed);
  EXPECT_EQ(kubernetes::cluster_identity_mode(*engine, {}), identity_mode::impersonate);
  auto reviews = server.requests("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
  ASSERT_FALSE(reviews.empty());
  auto body = nlohmann::json::parse(reviews[0].body);
  EXPECT_EQ(body["spec"]["resourceAttributes"]["verb"], "impersonate");
  EXPECT_EQ(body["spec"]["resourceAttributes"]["resource"], "serviceaccounts");
  EXPECT_EQ(reviews[0].user, engine_user);
}

TEST_F(object_identity_client, cluster_mode_falls_back_to_namespace_when_it_may_not) {
  test::kube::server_options options = rbac_options();
  options.token_users["bare-token"] = {"system:serviceaccount:argo-events:bare"};
  test::kube::api_server bare_server{options};
  kubernetes::cluster_config config;
  config.server = bare_server.url();
  config.token = "bare-token";
  kubernetes::api_client bare{config};
  auto answer = kubernetes::may_impersonate(bare, {});
  EXPECT_FALSE(answer.allowed);
  EXPECT_EQ(kubernetes::cluster_identity_mode(bare, {}), identity_mode::namespace_);

  // A Role in one namespace (deploy/rbac/role.yaml) allows that namespace only.
  bare_server.grant("team-a", "ganglion", {{{""}, {"serviceaccounts"}, {"impersonate"}}},
                    {test::kube::rbac_subject::service_account("argo-events", "bare")});
  EXPECT_TRUE(kubernetes::may_impersonate(bare, {"team-a"}).allowed);
  auto both = kubernetes::may_impersonate(bare, {"team-a", "team-b"});
  EXPECT_FALSE(both.allowed);
  EXPECT_NE(both.reason.find("team-b"), std::string::npos) << both.reason;
  EXPECT_FALSE(kubernetes::may_impersonate(bare, {}).allowed) << "cluster-wide needs more";
}

TEST(object_identity_names, service_account_users_and_modes) {
  EXPECT_EQ(kubernetes::service_account_user("team-a", ""), "system:serviceaccount:team-a:default");
  EXPECT_EQ(kubernetes::service_account_user("team-a", "runner"),
            "system:serviceaccount:team-a:runner");
  EXPECT_THROW(kubernetes::service_account_user("Team A", "x"), std::invalid_argument);
  EXPECT_THROW(kubernetes::service_account_user("a", "x:y"), std::invalid_argument);
  EXPECT_EQ(kubernetes::identity_mode_or_engine(""), identity_mode::engine);
  EXPECT_EQ(kubernetes::identity_mode_or_engine("namespace"), identity_mode::namespace_);
  EXPECT_EQ(kubernetes::identity_mode_named("impersonate"), identity_mode::impersonate);
  EXPECT_FALSE(kubernetes::identity_mode_named("root"));
  EXPECT_THROW(kubernetes::identity_mode_or_engine("root"), std::invalid_argument);
}

TEST(object_identity_names, paths_inside_a_namespace) {
  using kubernetes::detail::path_in_namespace;
  EXPECT_TRUE(path_in_namespace("/api/v1/namespaces/a/configmaps", "a"));
  EXPECT_TRUE(path_in_namespace("/apis/argoproj.io/v1alpha1/namespaces/a/workflows/w?x=1", "a"));
  EXPECT_FALSE(path_in_namespace("/api/v1/namespaces/b/configmaps", "a"));
  EXPECT_FALSE(path_in_namespace("/api/v1/namespaces/a", "a")) << "the Namespace object";
  EXPECT_FALSE(path_in_namespace("/api/v1/nodes/n", "a"));
  EXPECT_FALSE(path_in_namespace("/api/v1/namespaces/a/configmaps/../../b/configmaps/x", "a"));
  EXPECT_FALSE(path_in_namespace("/api/v1/namespaces/a/configmaps/%2e%2e", "a"));
  EXPECT_FALSE(path_in_namespace("/version", "a"));
}
