// RBAC and impersonation of the test Kubernetes API server (server_options::rbac), driven with
// libcurl: bindings confined to their namespace, ClusterRoles, resourceNames, subresources,
// Impersonate-* headers, the 403 Status wording, discovery, SelfSubjectAccessReview, kubectl.

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <tuple>

#include <curl/curl.h>
#include <gtest/gtest.h>

#include "child_process.hpp"
#include "files.hpp"
#include "kube/api_server.hpp"

using namespace ganglion::test::kube;

namespace {

/// A status and the parsed body.
struct answer {
  long status = 0;
  json body;
  std::string text;
};

std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

/// Requests (trusting the server's CA) with a bearer token (none when empty) and extra headers (`Impersonate-User: …`).
class caller {
public:
  caller(const api_server& server, std::string token, std::vector<std::string> headers = {})
    : base_(server.url()), ca_(server.ca_pem()), token_(std::move(token)),
      headers_(std::move(headers)) {}

  answer operator()(const std::string& method, const std::string& path,
                    const json& body = nullptr) const {
    CURL* curl = curl_easy_init();
    curl_slist* headers = nullptr;
    if (!token_.empty())
      headers = curl_slist_append(headers, ("Authorization: Bearer " + token_).c_str());
    for (const auto& header : headers_)
      headers = curl_slist_append(headers, header.c_str());
    std::string sent = body.is_null() ? "" : body.dump();
    if (!sent.empty())
      headers = curl_slist_append(headers, "Content-Type: application/json");
    answer a;
    curl_easy_setopt(curl, CURLOPT_URL, (base_ + path).c_str());
    curl_blob ca{const_cast<char*>(ca_.data()), ca_.size(), CURL_BLOB_COPY};
    if (!ca_.empty())
      curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &ca);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (!sent.empty())
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, sent.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a.text);
    if (curl_easy_perform(curl) == CURLE_OK)
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    a.body = json::parse(a.text, nullptr, false);
    return a;
  }
  answer get(const std::string& path) const { return (*this)("GET", path); }

private:
  std::string base_;
  std::string ca_;
  std::string token_;
  std::vector<std::string> headers_;
};

const std::string ganglion_sa = "system:serviceaccount:argo-events:ganglion";

/// RBAC on; tokens: `admin` (unrestricted), `alice`, `bob`, `ganglion` (the service account
/// argo-events/ganglion), `tenant-sa` (tenant/runner).
server_options rbac_options() {
  server_options options;
  options.rbac = true;
  options.tokens = {"admin"};
  options.token_users = {{"alice", {"alice", {"developers"}}},
                         {"bob", {"bob"}},
                         {"ganglion", {ganglion_sa}},
                         {"tenant-sa", {"system:serviceaccount:tenant:runner"}}};
  return options;
}

json secret(const std::string& ns, const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"data", {{"k", "dg=="}}}};
}

const policy_rule read_secrets{{""}, {"secrets"}, {"get", "list", "watch"}};

json cluster_role_ref(const std::string& name) {
  return {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", name}};
}

} // namespace

TEST(kube_api_server_rbac, off_by_default_everything_is_allowed_and_the_identity_recorded) {
  server_options options;
  options.tokens = {"admin"};
  options.token_users = {{"alice", {"alice"}}};
  api_server server{options};
  server.put(secret("victim", "s"));
  EXPECT_EQ(caller(server, "alice").get("/api/v1/namespaces/victim/secrets/s").status, 200);
  EXPECT_EQ(caller(server, "nobody").get("/api").status, 401);
  caller as_sa{server, "alice", {"Impersonate-User: system:serviceaccount:tenant:runner"}};
  EXPECT_EQ(as_sa.get("/api/v1/namespaces/victim/secrets").status, 200);
  EXPECT_EQ(caller(server, "admin").get("/apis/rbac.authorization.k8s.io/v1").status, 404);

  auto log = server.requests("GET", "/api/v1/namespaces/victim/secrets");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].user, "alice");
  EXPECT_EQ(log[0].impersonated_by, "");
  EXPECT_EQ(log[1].user, "system:serviceaccount:tenant:runner");
  EXPECT_EQ(log[1].impersonated_by, "alice");
  EXPECT_EQ(log[1].groups,
            (std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:tenant",
                                      "system:authenticated"}));
  EXPECT_EQ(server.users_of("GET", "/api"),
            (std::vector<std::string>{"alice", "system:anonymous",
                                      "system:serviceaccount:tenant:runner", "token-user"}));
}

TEST(kube_api_server_rbac, a_role_binding_grants_only_in_its_namespace) {
  api_server server{rbac_options()};
  server.put(secret("tenant", "mine"));
  server.put(secret("victim", "theirs"));
  server.grant("tenant", "reader", {read_secrets}, {rbac_subject::user("alice")});
  caller alice{server, "alice"};
  EXPECT_EQ(alice.get("/api/v1/namespaces/tenant/secrets").status, 200);
  EXPECT_EQ(alice.get("/api/v1/namespaces/tenant/secrets/mine").status, 200);
  EXPECT_EQ(alice.get("/api/v1/namespaces/tenant/configmaps").status, 403);
  EXPECT_EQ(alice("DELETE", "/api/v1/namespaces/tenant/secrets/mine").status, 403);

  auto listed = alice.get("/api/v1/namespaces/victim/secrets");
  EXPECT_EQ(listed.status, 403);
  EXPECT_EQ(listed.body,
            (json{{"kind", "Status"},
                  {"apiVersion", "v1"},
                  {"metadata", json::object()},
                  {"status", "Failure"},
                  {"message", "secrets is forbidden: User \"alice\" cannot list resource "
                              "\"secrets\" in API group \"\" in the namespace \"victim\""},
                  {"reason", "Forbidden"},
                  {"details", {{"kind", "secrets"}}},
                  {"code", 403}}));
  auto got = alice.get("/api/v1/namespaces/victim/secrets/theirs");
  EXPECT_EQ(got.body["message"],
            "secrets \"theirs\" is forbidden: User \"alice\" cannot get "
            "resource \"secrets\" in API group \"\" in the namespace \"victim\"");
  EXPECT_EQ(got.body["details"], (json{{"kind", "secrets"}, {"name", "theirs"}}));
  EXPECT_EQ(alice.get("/api/v1/secrets").body["message"],
            "secrets is forbidden: User \"alice\" cannot list resource \"secrets\" in API group "
            "\"\" at the cluster scope");
  EXPECT_EQ(alice.get("/api/v1/namespaces/victim/secrets?watch=true").body["message"],
            "secrets is forbidden: User \"alice\" cannot watch resource \"secrets\" in API group "
            "\"\" in the namespace \"victim\"");
  EXPECT_EQ(
    alice("POST", "/apis/apps/v1/namespaces/tenant/deployments", json::object()).body["message"],
    "deployments.apps is forbidden: User \"alice\" cannot create resource "
    "\"deployments\" in API group \"apps\" in the namespace \"tenant\"");
  EXPECT_EQ(caller(server, "bob").get("/api/v1/namespaces/tenant/secrets").status, 403);
  EXPECT_EQ(caller(server, "admin").get("/api/v1/namespaces/victim/secrets").status, 200);
}

TEST(kube_api_server_rbac, a_cluster_role_through_a_role_binding_grants_in_that_namespace) {
  api_server server{rbac_options()};
  server.grant("", "secret-reader", {read_secrets}, {});
  server.put({{"apiVersion", "rbac.authorization.k8s.io/v1"},
              {"kind", "RoleBinding"},
              {"metadata", {{"name", "runner-reads"}, {"namespace", "tenant"}}},
              {"roleRef", cluster_role_ref("secret-reader")},
              {"subjects", {{{"kind", "ServiceAccount"}, {"name", "runner"}}}}});
  caller runner{server, "tenant-sa"};
  EXPECT_EQ(runner.get("/api/v1/namespaces/tenant/secrets").status, 200);
  EXPECT_EQ(runner.get("/api/v1/namespaces/victim/secrets").status, 403);
  EXPECT_EQ(runner.get("/api/v1/secrets").status, 403);
}

TEST(kube_api_server_rbac, a_cluster_role_binding_grants_everywhere_and_cluster_scoped) {
  api_server server{rbac_options()};
  server.grant(
    "", "watcher",
    {read_secrets, {{""}, {"namespaces"}, {"get", "list"}}, {{"argoproj.io"}, {"*"}, {"list"}}},
    {rbac_subject::group("developers")});
  caller alice{server, "alice"};
  EXPECT_EQ(alice.get("/api/v1/secrets").status, 200);
  EXPECT_EQ(alice.get("/api/v1/namespaces/anywhere/secrets").status, 200);
  EXPECT_EQ(alice.get("/api/v1/namespaces").status, 200);
  EXPECT_EQ(alice.get("/api/v1/namespaces/default").status, 200);
  EXPECT_EQ(alice.get("/apis/argoproj.io/v1alpha1/sensors").status, 200);
  EXPECT_EQ(alice.get("/apis/argoproj.io/v1alpha1/clusterworkflowtemplates").status, 200);
  EXPECT_EQ(alice("DELETE", "/api/v1/namespaces/default").body["message"],
            "namespaces \"default\" is forbidden: User \"alice\" cannot delete resource "
            "\"namespaces\" in API group \"\" in the namespace \"default\"");
  EXPECT_EQ(alice("POST", "/apis/argoproj.io/v1alpha1/clusterworkflowtemplates", json::object())
              .body["message"],
            "clusterworkflowtemplates.argoproj.io is forbidden: User \"alice\" cannot create "
            "resource \"clusterworkflowtemplates\" in API group \"argoproj.io\" at the cluster "
            "scope");
  EXPECT_EQ(caller(server, "bob").get("/api/v1/secrets").status, 403);
}

TEST(kube_api_server_rbac, resource_names_restrict_named_requests_only) {
  api_server server{rbac_options()};
  server.put(secret("tenant", "mine"));
  server.put(secret("tenant", "other"));
  server.grant("tenant", "one-secret", {{{""}, {"secrets"}, {"get", "list", "watch"}, {"mine"}}},
               {rbac_subject::user("bob")});
  caller bob{server, "bob"};
  EXPECT_EQ(bob.get("/api/v1/namespaces/tenant/secrets/mine").status, 200);
  EXPECT_EQ(bob.get("/api/v1/namespaces/tenant/secrets/other").status, 403);
  EXPECT_EQ(bob.get("/api/v1/namespaces/tenant/secrets").status, 403);
  auto selected = bob.get("/api/v1/namespaces/tenant/secrets?fieldSelector=metadata.name%3Dmine");
  EXPECT_EQ(selected.status, 200);
  EXPECT_EQ(selected.body["items"].size(), 1u);
  EXPECT_EQ(bob.get("/api/v1/namespaces/tenant/secrets?fieldSelector=metadata.name%3Dother")
              .body["message"],
            "secrets \"other\" is forbidden: User \"bob\" cannot list resource \"secrets\" in "
            "API group \"\" in the namespace \"tenant\"");
}

TEST(kube_api_server_rbac, a_subresource_needs_its_own_rule_or_a_wildcard) {
  api_server server{rbac_options()};
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Sensor"},
              {"metadata", {{"name", "s"}, {"namespace", "tenant"}}}});
  server.grant("tenant", "sensors", {{{"argoproj.io"}, {"sensors"}, {"get", "patch"}}},
               {rbac_subject::user("alice")});
  server.grant("tenant", "statuses", {{{"argoproj.io"}, {"*/status"}, {"get", "patch"}}},
               {rbac_subject::user("bob")});
  const std::string status = "/apis/argoproj.io/v1alpha1/namespaces/tenant/sensors/s/status";
  caller alice{server, "alice"};
  caller bob{server, "bob"};
  EXPECT_EQ(alice.get("/apis/argoproj.io/v1alpha1/namespaces/tenant/sensors/s").status, 200);
  auto refused = alice.get(status);
  EXPECT_EQ(refused.body["message"],
            "sensors.argoproj.io \"s\" is forbidden: User \"alice\" cannot get resource "
            "\"sensors/status\" in API group \"argoproj.io\" in the namespace \"tenant\"");
  EXPECT_EQ(refused.body["details"],
            (json{{"kind", "sensors"}, {"group", "argoproj.io"}, {"name", "s"}}));
  EXPECT_EQ(bob.get(status).status, 200);
  EXPECT_EQ(bob.get("/apis/argoproj.io/v1alpha1/namespaces/tenant/sensors/s").status, 403);

  server.grant("tenant", "sensors", {{{"argoproj.io"}, {"*"}, {"get"}}},
               {rbac_subject::user("alice")});
  EXPECT_EQ(alice.get(status).status, 200); // `*` matches subresources too, as in Kubernetes
}

TEST(kube_api_server_rbac, a_missing_role_is_named_in_the_reason) {
  api_server server{rbac_options()};
  server.put({{"apiVersion", "rbac.authorization.k8s.io/v1"},
              {"kind", "RoleBinding"},
              {"metadata", {{"name", "dangling"}, {"namespace", "tenant"}}},
              {"roleRef", cluster_role_ref("absent")},
              {"subjects", {rbac_subject::user("bob").to_json()}}});
  EXPECT_EQ(caller(server, "bob").get("/api/v1/namespaces/tenant/pods").body["message"],
            "pods is forbidden: User \"bob\" cannot list resource \"pods\" in API group \"\" in "
            "the namespace \"tenant\": RBAC: clusterrole.rbac.authorization.k8s.io \"absent\" not "
            "found");
}

TEST(kube_api_server_rbac, service_accounts_have_their_groups) {
  api_server server{rbac_options()};
  server.grant("tenant", "all-accounts", {read_secrets},
               {rbac_subject::group("system:serviceaccounts:tenant")});
  caller runner{server, "tenant-sa"};
  EXPECT_EQ(runner.get("/api/v1/namespaces/tenant/secrets").status, 200);
  EXPECT_EQ(caller(server, "ganglion").get("/api/v1/namespaces/tenant/secrets").status, 403);
  auto log = server.requests("GET", "/api/v1/namespaces/tenant/secrets");
  EXPECT_EQ(log[0].groups,
            (std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:tenant",
                                      "system:authenticated"}));
}

TEST(kube_api_server_rbac, discovery_is_for_authenticated_users_health_for_everyone) {
  server_options options;
  options.rbac = true;
  api_server server{options}; // no tokens: every request is system:anonymous
  caller anonymous{server, ""};
  EXPECT_EQ(anonymous.get("/healthz").status, 200);
  EXPECT_EQ(anonymous.get("/version").status, 200);
  auto refused = anonymous.get("/apis");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body["message"],
            "forbidden: User \"system:anonymous\" cannot get path \"/apis\"");
  EXPECT_EQ(refused.body["details"], json::object());

  api_server secured{rbac_options()};
  caller bob{secured, "bob"};
  for (const char* path : {"/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1",
                           "/apis/rbac.authorization.k8s.io/v1", "/openapi/v3", "/version"})
    EXPECT_EQ(bob.get(path).status, 200) << path;
  EXPECT_EQ(bob.get("/api/v1/namespaces").status, 403);
  EXPECT_EQ(caller(secured, "").get("/api").status, 401);
}

TEST(kube_api_server_rbac, impersonating_a_service_account_needs_impersonate_in_its_namespace) {
  api_server server{rbac_options()};
  server.put(secret("tenant", "mine"));
  server.grant("tenant", "impersonator", {{{""}, {"serviceaccounts"}, {"impersonate"}}},
               {rbac_subject::service_account("argo-events", "ganglion")});
  server.grant_service_account("tenant", "runner", {read_secrets});
  caller as_runner{server, "ganglion", {"Impersonate-User: system:serviceaccount:tenant:runner"}};
  EXPECT_EQ(as_runner.get("/api/v1/namespaces/tenant/secrets/mine").status, 200);
  auto denied = as_runner.get("/api/v1/namespaces/victim/secrets");
  EXPECT_EQ(denied.body["message"],
            "secrets is forbidden: User \"system:serviceaccount:tenant:runner\" cannot list "
            "resource \"secrets\" in API group \"\" in the namespace \"victim\"");

  caller as_victim{server, "ganglion", {"Impersonate-User: system:serviceaccount:victim:runner"}};
  auto refused = as_victim.get("/api/v1/namespaces/victim/secrets");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body["message"],
            "serviceaccounts \"runner\" is forbidden: User \"" + ganglion_sa
              + "\" cannot impersonate resource \"serviceaccounts\" in API group \"\" in the "
                "namespace \"victim\"");
  EXPECT_EQ(caller(server, "ganglion").get("/api/v1/namespaces/tenant/secrets").status, 403);

  auto log = server.requests("GET", "/api/v1/namespaces/");
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0].user, "system:serviceaccount:tenant:runner");
  EXPECT_EQ(log[0].impersonated_by, ganglion_sa);
  EXPECT_EQ(log[2].user, ganglion_sa); // refused impersonation: the requester
  EXPECT_EQ(log[2].impersonated_by, "");
  EXPECT_EQ(log[3].impersonated_by, "");
}

TEST(kube_api_server_rbac, impersonating_users_and_groups_is_checked_for_each) {
  api_server server{rbac_options()};
  server.grant("", "impersonate-alice",
               {{{""}, {"users"}, {"impersonate"}, {"alice"}},
                {{""}, {"groups"}, {"impersonate"}, {"developers"}}},
               {rbac_subject::user("bob")});
  server.grant("", "developers-read", {read_secrets}, {rbac_subject::group("developers")});
  EXPECT_EQ(caller(server, "bob", {"Impersonate-User: alice"}).get("/api/v1/secrets").status,
            403); // alice impersonated without groups has only system:authenticated
  caller with_group{server, "bob", {"Impersonate-User: alice", "Impersonate-Group: developers"}};
  EXPECT_EQ(with_group.get("/api/v1/secrets").status, 200);
  EXPECT_EQ(server.requests().back().groups,
            (std::vector<std::string>{"developers", "system:authenticated"}));

  auto user_refused = caller(server, "bob", {"Impersonate-User: carol"}).get("/api");
  EXPECT_EQ(user_refused.body["message"],
            "users \"carol\" is forbidden: User \"bob\" cannot impersonate resource \"users\" in "
            "API group \"\" at the cluster scope");
  auto group_refused =
    caller(server, "bob", {"Impersonate-User: alice", "Impersonate-Group: system:masters"})
      .get("/api");
  EXPECT_EQ(group_refused.body["message"],
            "groups \"system:masters\" is forbidden: User \"bob\" cannot impersonate resource "
            "\"groups\" in API group \"\" at the cluster scope");
  auto uid_refused =
    caller(server, "bob", {"Impersonate-User: alice", "Impersonate-Uid: 1234"}).get("/api");
  EXPECT_EQ(uid_refused.body["message"],
            "uids.authentication.k8s.io \"1234\" is forbidden: User \"bob\" cannot impersonate "
            "resource \"uids\" in API group \"authentication.k8s.io\" at the cluster scope");

  auto no_user = caller(server, "bob", {"Impersonate-Group: developers"}).get("/api");
  EXPECT_EQ(no_user.status, 500);
  EXPECT_EQ(no_user.text, "Internal Server Error: \"/api\": requested [{Group  developers    }] "
                          "without impersonating a user");

  caller admin_as_masters{
    server, "admin", {"Impersonate-User: root", "Impersonate-Group: system:masters"}};
  EXPECT_EQ(admin_as_masters.get("/api/v1/namespaces/x/pods").status, 200);
  EXPECT_EQ(server.requests().back().user, "root");
  EXPECT_EQ(server.requests().back().impersonated_by, "token-user");
}

TEST(kube_api_server_rbac, a_self_subject_access_review_answers_for_the_caller) {
  api_server server{rbac_options()};
  server.grant("tenant", "reader", {read_secrets}, {rbac_subject::user("alice")});
  server.grant("", "impersonator", {{{""}, {"users"}, {"impersonate"}}},
               {rbac_subject::user("bob")});
  auto review = [](const std::string& ns, const std::string& verb) {
    return json{
      {"apiVersion", "authorization.k8s.io/v1"},
      {"kind", "SelfSubjectAccessReview"},
      {"spec",
       {{"resourceAttributes", {{"namespace", ns}, {"verb", verb}, {"resource", "secrets"}}}}}};
  };
  const std::string path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
  auto allowed = caller(server, "alice")("POST", path, review("tenant", "list"));
  ASSERT_EQ(allowed.status, 201) << allowed.text;
  EXPECT_EQ(allowed.body["kind"], "SelfSubjectAccessReview");
  EXPECT_EQ(allowed.body["status"],
            (json{{"allowed", true},
                  {"reason", "RBAC: allowed by RoleBinding \"reader/tenant\" of Role \"reader\" "
                             "to User \"alice\""}}));
  EXPECT_EQ(caller(server, "alice")("POST", path, review("victim", "list")).body["status"],
            (json{{"allowed", false}}));
  EXPECT_EQ(caller(server, "bob")("POST", path, review("tenant", "list")).body["status"]["allowed"],
            false);
  caller bob_as_alice{server, "bob", {"Impersonate-User: alice"}};
  EXPECT_EQ(bob_as_alice("POST", path, review("tenant", "get")).body["status"]["allowed"], true);
  json impersonation = {
    {"apiVersion", "authorization.k8s.io/v1"},
    {"kind", "SelfSubjectAccessReview"},
    {"spec",
     {{"resourceAttributes", {{"verb", "impersonate"}, {"resource", "users"}, {"name", "x"}}}}}};
  EXPECT_EQ(caller(server, "bob")("POST", path, impersonation).body["status"]["allowed"], true);
  EXPECT_EQ(caller(server, "alice")("POST", path, impersonation).body["status"]["allowed"], false);
  EXPECT_EQ(caller(server, "alice")("POST", path,
                                    json{{"kind", "SelfSubjectAccessReview"},
                                         {"apiVersion", "authorization.k8s.io/v1"},
                                         {"spec", json::object()}})
              .status,
            422);
}

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

} // namespace

TEST(kube_api_server_rbac, kubectl_applies_deploy_rbac_and_auth_can_i_sees_it) {
  auto kubectl = find_kubectl();
  if (kubectl.empty())
    GTEST_SKIP() << "no kubectl (GANGLION_KUBECTL or PATH)";
  auto options = rbac_options();
  options.tls = true; // kubectl sends no bearer token over plain HTTP
  api_server server{options};
  auto dir = ganglion::test::temp_dir();
  ganglion::test::write_file(dir + "/kubeconfig", server.kubeconfig("admin"));
  auto run = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{kubectl, "--kubeconfig", dir + "/kubeconfig", "--cache-dir",
                                  dir + "/cache"};
    argv.insert(argv.end(), args.begin(), args.end());
    ganglion::test::child_process process{argv};
    auto code = process.wait(std::chrono::seconds(60));
    return std::pair{code.value_or(-1), process.output()};
  };
  // The ServiceAccount and Role as deploy/base builds on them, then the other two files.
  const auto rbac = std::string(GANGLION_SOURCE_DIR) + "/deploy/rbac";
  auto [code, out] = run({"apply", "-k", rbac});
  ASSERT_EQ(code, 0) << out;
  std::tie(code, out) = run({"apply", "-f", rbac + "/cluster-role.yaml", "-f",
                             rbac + "/tenant-example.yaml"});
  ASSERT_EQ(code, 0) << out;
  ASSERT_TRUE(server.get("rbac.authorization.k8s.io/v1", "RoleBinding", "argo-events", "ganglion"));
  ASSERT_TRUE(server.get("v1", "ServiceAccount", "argo-events", "ganglion"));

  caller ganglion{server, "ganglion"};
  EXPECT_EQ(ganglion.get("/apis/argoproj.io/v1alpha1/sensors").status, 200);
  EXPECT_EQ(ganglion.get("/api/v1/namespaces/elsewhere/secrets").status, 200);
  EXPECT_EQ(ganglion("DELETE", "/api/v1/namespaces/argo-events/secrets/x").status, 403);

  std::tie(code, out) = run({"auth", "can-i", "list", "secrets", "-n", "argo-events", "--as",
                             "system:serviceaccount:argo-events:ganglion"});
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("yes"), std::string::npos) << out;
  std::tie(code, out) = run({"auth", "can-i", "delete", "secrets", "-n", "argo-events", "--as",
                             "system:serviceaccount:argo-events:ganglion"});
  EXPECT_NE(code, 0) << out;
  EXPECT_NE(out.find("no"), std::string::npos) << out;
}
