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
          "eventbus/status:patch", "secrets:list", "secrets:watch"})
      EXPECT_TRUE(granted.count(needed)) << file << " lacks " << needed;
    EXPECT_EQ(docs[1]["roleRef"]["name"].as<std::string>(),
              docs[0]["metadata"]["name"].as<std::string>());
  }
}
