// `ganglion run --from-cluster` picks whose rights objects' Kubernetes calls use (issue 31):
// impersonation when the engine may impersonate service accounts (a SelfSubjectAccessReview at
// start), else `namespace` after one warning saying how to grant it; `--object-identity`
// overrides and asks nothing. Against the test API server with RBAC, the engine authenticated
// as argo-events/ganglion with deploy/rbac's rules.

#include "cluster_options.hpp"
#include "engine_process.hpp"
#include "files.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;

namespace {

constexpr const char* engine_user = "system:serviceaccount:argo-events:ganglion";
constexpr const char* reviews = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

/// An RBAC-enforcing server where the engine has deploy/rbac/cluster-role.yaml's rules, the
/// impersonation rule only when `may_impersonate`.
std::unique_ptr<test::kube::api_server> server_for(bool may_impersonate) {
  test::kube::server_options options;
  options.rbac = true;
  options.token_users = {{"engine-token", {engine_user}}};
  auto server = std::make_unique<test::kube::api_server>(options);
  std::vector<test::kube::policy_rule> rules{
    {{"argoproj.io"}, {"eventsources", "sensors", "eventbus"}, {"get", "list", "watch"}},
    {{"argoproj.io"},
     {"eventsources/status", "sensors/status", "eventbus/status"},
     {"get", "update", "patch"}},
    {{""}, {"secrets"}, {"get", "list", "watch"}}};
  if (may_impersonate)
    rules.push_back({{""}, {"serviceaccounts"}, {"impersonate"}});
  server->grant("", "ganglion", rules,
                {test::kube::rbac_subject::service_account("argo-events", "ganglion")});
  return server;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

} // namespace

TEST(e2e_kubernetes_object_identity, cluster_mode_impersonates_when_the_engine_may) {
  auto server = server_for(true);
  e2e::engine_process engine{"", e2e::from_cluster(*server, {"--all-namespaces"}, "engine-token")};
  EXPECT_NE(engine.output().find("object identity: impersonate"), std::string::npos)
    << engine.output();
  auto asked = server->requests("POST", reviews);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0].user, engine_user);
  EXPECT_NE(asked[0].body.find("\"impersonate\""), std::string::npos) << asked[0].body;
}

TEST(e2e_kubernetes_object_identity, cluster_mode_falls_back_to_namespace_with_one_warning) {
  auto server = server_for(false);
  e2e::engine_process engine{"", e2e::from_cluster(*server, {"--all-namespaces"}, "engine-token")};
  auto output = engine.output();
  EXPECT_EQ(count_of(output, "the engine may not impersonate service accounts"), 1u) << output;
  EXPECT_NE(output.find("deploy/rbac"), std::string::npos) << output;
  EXPECT_NE(output.find("object identity: namespace"), std::string::npos) << output;
}

TEST(e2e_kubernetes_object_identity, the_flag_overrides_and_asks_nothing) {
  auto server = server_for(false);
  e2e::engine_process engine{"", e2e::from_cluster(*server, {"--all-namespaces", "--object-identity", "engine"}, "engine-token")};
  EXPECT_TRUE(server->requests("POST", reviews).empty());
  EXPECT_EQ(engine.output().find("may not impersonate"), std::string::npos) << engine.output();
}
