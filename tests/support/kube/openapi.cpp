#include "openapi.hpp"

#include <functional>
#include <map>

namespace ganglion::test::kube {

namespace {

const char* const info_title = "ganglion test API server";
const char* const info_version = "v1.29.0";

std::string path_key(const std::string& group, const std::string& version) {
  return group.empty() ? "api/" + version : "apis/" + group + "/" + version;
}

json patch_parameter(const char* name) {
  return {{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}};
}

/// A protobuf length-delimited field (`tag` is field number << 3 | 2), for lengths below 128.
std::string field(char tag, const std::string& value) {
  return std::string(1, tag) + static_cast<char>(value.size()) + value;
}

} // namespace

json openapi_v3_index(const std::vector<resource_type>& types) {
  json paths = json::object();
  std::map<std::string, std::string> served;
  for (const auto& type : types)
    served[path_key(type.group, type.version)] += type.kind + "/" + type.plural + ";";
  for (const auto& [key, resources] : served)
    paths[key] = {{"serverRelativeURL", "/openapi/v3/" + key + "?hash="
                                          + std::to_string(std::hash<std::string>{}(resources))}};
  return {{"paths", paths}};
}

json openapi_v3_group_version(const std::vector<resource_type>& types, const std::string& group,
                              const std::string& version) {
  json paths = json::object();
  for (const auto& type : types) {
    if (type.group != group || type.version != version)
      continue;
    std::string path = "/" + path_key(group, version)
                       + (type.namespaced ? "/namespaces/{namespace}/" : "/") + type.plural
                       + "/{name}";
    paths[path] = {{"patch",
                    {{"operationId", "patch" + type.kind},
                     {"x-kubernetes-group-version-kind",
                      {{"group", group}, {"version", version}, {"kind", type.kind}}},
                     {"parameters",
                      {patch_parameter("fieldValidation"), patch_parameter("fieldManager"),
                       patch_parameter("force")}},
                     {"responses", {{"200", {{"description", "OK"}}}}}}}};
  }
  if (paths.empty())
    return nullptr;
  return {{"openapi", "3.0.0"},
          {"info", {{"title", info_title}, {"version", info_version}}},
          {"paths", paths}};
}

std::string openapi_v2_protobuf() {
  // gnostic's openapi_v2.Document: swagger = 1, info = 2 (Info: title = 1, version = 2).
  auto info = field('\x0a', info_title) + field('\x12', info_version);
  return field('\x0a', "2.0") + field('\x12', info);
}

json openapi_v2_json() {
  return {{"swagger", "2.0"},
          {"info", {{"title", info_title}, {"version", info_version}}},
          {"paths", json::object()}};
}

} // namespace ganglion::test::kube
