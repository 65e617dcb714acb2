#include "rbac_policy.hpp"

namespace ganglion::test::kube {

namespace {

constexpr const char* rbac_api = "rbac.authorization.k8s.io/v1";

json bootstrap_metadata(const std::string& name) {
  return {{"name", name},
          {"labels", {{"kubernetes.io/bootstrapping", "rbac-defaults"}}},
          {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}};
}

json cluster_role(const std::string& name, json rules) {
  return {{"apiVersion", rbac_api},
          {"kind", "ClusterRole"},
          {"metadata", bootstrap_metadata(name)},
          {"rules", std::move(rules)}};
}

json cluster_binding(const std::string& name, const std::vector<std::string>& groups) {
  json subjects = json::array();
  for (const auto& group : groups)
    subjects.push_back(rbac_subject::group(group).to_json());
  return {{"apiVersion", rbac_api},
          {"kind", "ClusterRoleBinding"},
          {"metadata", bootstrap_metadata(name)},
          {"roleRef",
           {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", name}}},
          {"subjects", subjects}};
}

json role_of(const std::string& ns, const std::string& name,
             const std::vector<policy_rule>& rules) {
  json list = json::array();
  for (const auto& rule : rules)
    list.push_back(rule.to_json());
  json metadata = {{"name", name}};
  if (!ns.empty())
    metadata["namespace"] = ns;
  return {{"apiVersion", rbac_api},
          {"kind", ns.empty() ? "ClusterRole" : "Role"},
          {"metadata", metadata},
          {"rules", list}};
}

json binding_of(const std::string& ns, const std::string& name,
                const std::vector<rbac_subject>& subjects) {
  json list = json::array();
  for (const auto& subject : subjects)
    list.push_back(subject.to_json());
  json metadata = {{"name", name}};
  if (!ns.empty())
    metadata["namespace"] = ns;
  return {{"apiVersion", rbac_api},
          {"kind", ns.empty() ? "ClusterRoleBinding" : "RoleBinding"},
          {"metadata", metadata},
          {"roleRef",
           {{"apiGroup", "rbac.authorization.k8s.io"},
            {"kind", ns.empty() ? "ClusterRole" : "Role"},
            {"name", name}}},
          {"subjects", list}};
}

} // namespace

std::vector<resource_type> rbac_resources() {
  return {
    {"", "v1", "ServiceAccount", "serviceaccounts", true, false, {"sa"}},
    {"rbac.authorization.k8s.io",
     "v1",
     "ClusterRoleBinding",
     "clusterrolebindings",
     false,
     false,
     {}},
    {"rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false, false, {}},
    {"rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", true, false, {}},
    {"rbac.authorization.k8s.io", "v1", "Role", "roles", true, false, {}},
  };
}

std::vector<json> bootstrap_policy() {
  json everything = json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"*"}}},
                                 {{"nonResourceURLs", {"*"}}, {"verbs", {"*"}}}});
  json discovery = json::array({{{"nonResourceURLs",
                                  {"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
                                   "/openapi", "/openapi/*", "/readyz", "/version", "/version/"}},
                                 {"verbs", {"get"}}}});
  json public_info =
    json::array({{{"nonResourceURLs", {"/healthz", "/livez", "/readyz", "/version", "/version/"}},
                  {"verbs", {"get"}}}});
  json basic_user =
    json::array({{{"apiGroups", {"authorization.k8s.io"}},
                  {"resources", {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}},
                  {"verbs", {"create"}}}});
  return {
    cluster_role("cluster-admin", everything),
    cluster_binding("cluster-admin", {"system:masters"}),
    cluster_role("system:discovery", discovery),
    cluster_binding("system:discovery", {"system:authenticated"}),
    cluster_role("system:public-info-viewer", public_info),
    cluster_binding("system:public-info-viewer",
                    {"system:authenticated", "system:unauthenticated"}),
    cluster_role("system:basic-user", basic_user),
    cluster_binding("system:basic-user", {"system:authenticated"}),
  };
}

json policy_rule::to_json() const {
  json rule = {{"apiGroups", api_groups}, {"resources", resources}, {"verbs", verbs}};
  if (!resource_names.empty())
    rule["resourceNames"] = resource_names;
  return rule;
}

rbac_subject rbac_subject::service_account(std::string ns, std::string name) {
  return {"ServiceAccount", std::move(name), std::move(ns)};
}

rbac_subject rbac_subject::user(std::string name) {
  return {"User", std::move(name), {}};
}

rbac_subject rbac_subject::group(std::string name) {
  return {"Group", std::move(name), {}};
}

json rbac_subject::to_json() const {
  json subject = {{"kind", kind}, {"name", name}};
  if (kind == "ServiceAccount")
    subject["namespace"] = ns;
  else
    subject["apiGroup"] = "rbac.authorization.k8s.io";
  return subject;
}

json api_server::grant(const std::string& ns, const std::string& name,
                       const std::vector<policy_rule>& rules,
                       const std::vector<rbac_subject>& subjects) {
  put(role_of(ns, name, rules));
  return put(binding_of(ns, name, subjects));
}

json api_server::grant_service_account(const std::string& ns, const std::string& service_account,
                                       const std::vector<policy_rule>& rules) {
  return grant(ns, service_account, rules, {rbac_subject::service_account(ns, service_account)});
}

} // namespace ganglion::test::kube
