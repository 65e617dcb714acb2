#include "resources.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace ganglion::test::kube {

std::string resource_type::api_version() const {
  return group.empty() ? version : group + "/" + version;
}

std::vector<resource_type> builtin_resources() {
  return {
    {"", "v1", "Pod", "pods", true, true, {"po"}},
    {"", "v1", "ConfigMap", "configmaps", true, false, {"cm"}},
    {"", "v1", "Secret", "secrets", true, false, {}},
    {"", "v1", "Service", "services", true, true, {"svc"}},
    {"", "v1", "Namespace", "namespaces", false, true, {"ns"}},
    {"", "v1", "Event", "events", true, false, {"ev"}},
    {"apps", "v1", "Deployment", "deployments", true, true, {"deploy"}},
    {"batch", "v1", "Job", "jobs", true, true, {}},
    {"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false,
     true, {"crd", "crds"}},
    {"argoproj.io", "v1alpha1", "Workflow", "workflows", true, false, {"wf"}},
    {"argoproj.io", "v1alpha1", "WorkflowTemplate", "workflowtemplates", true, false, {"wftmpl"}},
    {"argoproj.io", "v1alpha1", "ClusterWorkflowTemplate", "clusterworkflowtemplates", false,
     false, {"clusterwftmpl", "cwft"}},
    {"argoproj.io", "v1alpha1", "CronWorkflow", "cronworkflows", true, false, {"cwf", "cronwf"}},
    {"argoproj.io", "v1alpha1", "EventSource", "eventsources", true, true, {"es"}},
    {"argoproj.io", "v1alpha1", "Sensor", "sensors", true, true, {"sn"}},
    {"argoproj.io", "v1alpha1", "EventBus", "eventbus", true, true, {"eb"}},
  };
}

bool is_builtin(const resource_type& type) {
  return type.group.empty() || type.group == "apps" || type.group == "batch"
         || type.group == "apiextensions.k8s.io" || type.group == "rbac.authorization.k8s.io";
}

std::string singular_of(const resource_type& type) {
  std::string singular = type.kind;
  std::transform(singular.begin(), singular.end(), singular.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return singular;
}

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x))
                  == std::tolower(static_cast<unsigned char>(y));
         });
}

json group_entry(const std::string& group, const std::set<std::string>& versions) {
  json list = json::array();
  for (const auto& version : versions)
    list.push_back({{"groupVersion", group + "/" + version}, {"version", version}});
  return {{"name", group}, {"versions", list}, {"preferredVersion", list.back()}};
}

std::set<std::string> versions_of(const std::vector<resource_type>& types,
                                  const std::string& group) {
  std::set<std::string> versions;
  for (const auto& type : types)
    if (type.group == group)
      versions.insert(type.version);
  return versions;
}

} // namespace

std::optional<resource_type> find_resource(const std::vector<resource_type>& types,
                                           std::string_view api_version, std::string_view kind) {
  for (const auto& type : types)
    if (type.api_version() == api_version && (iequals(type.kind, kind) || type.plural == kind))
      return type;
  return std::nullopt;
}

json api_versions(const std::string& address) {
  return {{"kind", "APIVersions"},
          {"versions", {"v1"}},
          {"serverAddressByClientCIDRs",
           json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", address}}})}};
}

json api_group_list(const std::vector<resource_type>& types) {
  json groups = json::array();
  std::vector<std::string> seen;
  for (const auto& type : types) {
    if (type.group.empty() || std::find(seen.begin(), seen.end(), type.group) != seen.end())
      continue;
    seen.push_back(type.group);
    groups.push_back(group_entry(type.group, versions_of(types, type.group)));
  }
  return {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}};
}

json api_group(const std::vector<resource_type>& types, const std::string& group) {
  auto versions = versions_of(types, group);
  if (group.empty() || versions.empty())
    return nullptr;
  json entry = group_entry(group, versions);
  entry["kind"] = "APIGroup";
  entry["apiVersion"] = "v1";
  return entry;
}

json api_resource_list(const std::vector<resource_type>& types, const std::string& group,
                       const std::string& version) {
  json resources = json::array();
  bool any = false;
  for (const auto& type : types) {
    if (type.group != group || type.version != version)
      continue;
    any = true;
    json entry = {{"name", type.plural},
                  {"singularName", singular_of(type)},
                  {"namespaced", type.namespaced},
                  {"kind", type.kind},
                  {"verbs", {"create", "delete", "get", "list", "patch", "update", "watch"}}};
    if (!type.short_names.empty())
      entry["shortNames"] = type.short_names;
    resources.push_back(std::move(entry));
    if (type.has_status)
      resources.push_back({{"name", type.plural + "/status"},
                           {"singularName", ""},
                           {"namespaced", type.namespaced},
                           {"kind", type.kind},
                           {"verbs", {"get", "patch", "update"}}});
  }
  if (!any && !(group.empty() && version == "v1"))
    return nullptr;
  return {{"kind", "APIResourceList"},
          {"apiVersion", "v1"},
          {"groupVersion", group.empty() ? version : group + "/" + version},
          {"resources", resources}};
}

} // namespace ganglion::test::kube
