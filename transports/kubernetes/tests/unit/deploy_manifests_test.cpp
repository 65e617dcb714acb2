// deploy/: the CRDs cluster mode needs are structural (every schema node has a type, spec and
// status keep unknown fields) with the status subresource and Argo's names; the RBAC grants
// the verbs cluster mode uses.

#include <set>
#include <string>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace {

std::string deploy(const std::string& file) {
  return std::string{GANGLION_SOURCE_DIR} + "/deploy/" + file;
}

/// Every schema node under `node` has a `type`.
void expect_structural(const YAML::Node& node, const std::string& path) {
  EXPECT_TRUE(node["type"].IsDefined()) << path << " has no type";
  if (node["properties"])
    for (const auto& p : node["properties"])
      expect_structural(p.second, path + "." + p.first.as<std::string>());
}

} // namespace

TEST(kubernetes_deploy, the_crds_are_structural_with_a_status_subresource) {
  const std::set<std::pair<std::string, std::string>> expected{
    {"eventsource", "es"}, {"sensor", "sn"}, {"eventbus", "eb"}};
  for (const auto& [singular, short_name] : expected) {
    auto crd = YAML::LoadFile(deploy("crds/" + singular + ".yaml"));
    EXPECT_EQ(crd["kind"].as<std::string>(), "CustomResourceDefinition");
    EXPECT_EQ(crd["spec"]["group"].as<std::string>(), "argoproj.io");
    EXPECT_EQ(crd["spec"]["scope"].as<std::string>(), "Namespaced");
    EXPECT_EQ(crd["spec"]["names"]["singular"].as<std::string>(), singular);
    EXPECT_EQ(crd["spec"]["names"]["shortNames"][0].as<std::string>(), short_name);
    EXPECT_EQ(crd["metadata"]["name"].as<std::string>(),
              crd["spec"]["names"]["plural"].as<std::string>() + ".argoproj.io");
    auto version = crd["spec"]["versions"][0];
    EXPECT_EQ(version["name"].as<std::string>(), "v1alpha1");
    EXPECT_TRUE(version["subresources"]["status"].IsMap()) << singular;
    auto schema = version["schema"]["openAPIV3Schema"];
    expect_structural(schema, singular);
    for (const char* part : {"spec", "status"})
      EXPECT_TRUE(schema["properties"][part]["x-kubernetes-preserve-unknown-fields"].as<bool>())
        << singular << "." << part;
  }
}

TEST(kubernetes_deploy, the_roles_grant_what_cluster_mode_uses) {
  for (const char* file : {"rbac/role.yaml", "rbac/cluster-role.yaml"}) {
    auto docs = YAML::LoadAllFromFile(deploy(file));
    ASSERT_EQ(docs.size(), 2u) << file;
    std::set<std::string> granted;
    for (const auto& rule : docs[0]["rules"])
      for (const auto& resource : rule["resources"])
        for (const auto& verb : rule["verbs"])
          granted.insert(resource.as<std::string>() + ":" + verb.as<std::string>());
    for (const char* needed :
         {"eventsources:list", "eventsources:watch", "sensors:list", "sensors:watch",
          "eventbus:list", "eventbus:watch", "eventsources/status:patch", "sensors/status:patch",
          "eventbus/status:patch", "secrets:list", "secrets:watch",
          "serviceaccounts:impersonate"})
      EXPECT_TRUE(granted.count(needed)) << file << " lacks " << needed;
    // The configmap trigger source reads as the object's service account (issue 31).
    for (const auto& grant : granted)
      EXPECT_FALSE(grant.starts_with("configmaps:")) << file << " grants " << grant;
    EXPECT_EQ(docs[1]["roleRef"]["name"].as<std::string>(),
              docs[0]["metadata"]["name"].as<std::string>());
  }
}

TEST(kubernetes_deploy, the_tenant_example_binds_its_role_to_its_own_service_account) {
  auto docs = YAML::LoadAllFromFile(deploy("rbac/tenant-example.yaml"));
  ASSERT_EQ(docs.size(), 3u);
  const auto ns = docs[0]["metadata"]["namespace"].as<std::string>();
  EXPECT_EQ(docs[0]["kind"].as<std::string>(), "ServiceAccount");
  EXPECT_EQ(docs[1]["kind"].as<std::string>(), "Role");
  EXPECT_EQ(docs[2]["kind"].as<std::string>(), "RoleBinding");
  for (const auto& doc : docs)
    EXPECT_EQ(doc["metadata"]["namespace"].as<std::string>(), ns);
  EXPECT_EQ(docs[2]["roleRef"]["name"].as<std::string>(),
            docs[1]["metadata"]["name"].as<std::string>());
  const auto& subject = docs[2]["subjects"][0];
  EXPECT_EQ(subject["kind"].as<std::string>(), "ServiceAccount");
  EXPECT_EQ(subject["name"].as<std::string>(), docs[0]["metadata"]["name"].as<std::string>());
  EXPECT_EQ(subject["namespace"].as<std::string>(), ns);
}
