#include "crds.hpp"

#include "errors.hpp"
#include "text.hpp"

namespace ganglion::test::kube {

namespace {

const resource_type crd_type{"apiextensions.k8s.io",
                             "v1",
                             "CustomResourceDefinition",
                             "customresourcedefinitions",
                             false,
                             true,
                             {}};

std::string text_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

api_error required(const std::string& name, const std::string& field) {
  return invalid(crd_type, name, field, "FieldValueRequired", "Required value");
}

/// The version served: the storage one, else the first served.
const json* served_version(const json& versions) {
  const json* first_served = nullptr;
  for (const auto& version : versions) {
    if (!version.is_object() || !version.value("served", false))
      continue;
    if (version.value("storage", false))
      return &version;
    if (!first_served)
      first_served = &version;
  }
  return first_served;
}

} // namespace

resource_type crd_resource(const json& crd) {
  std::string name = crd.contains("metadata") ? text_at(crd["metadata"], "name") : "";
  const json& spec = crd.contains("spec") && crd["spec"].is_object() ? crd["spec"] : json::object();
  const json& names = spec.contains("names") && spec["names"].is_object() ? spec["names"]
                                                                          : json::object();
  resource_type type;
  type.group = text_at(spec, "group");
  type.kind = text_at(names, "kind");
  type.plural = text_at(names, "plural");
  if (type.group.empty())
    throw required(name, "spec.group");
  if (type.kind.empty())
    throw required(name, "spec.names.kind");
  if (type.plural.empty())
    throw required(name, "spec.names.plural");
  if (name != type.plural + "." + type.group)
    throw invalid(crd_type, name, "metadata.name", "FieldValueInvalid",
                  "Invalid value: \"" + name + "\": must be spec.names.plural+\".\"+spec.group");
  auto scope = text_at(spec, "scope");
  if (scope != "Namespaced" && scope != "Cluster")
    throw invalid(crd_type, name, "spec.scope", "FieldValueNotSupported",
                  "Unsupported value: \"" + scope
                    + "\": supported values: \"Cluster\", \"Namespaced\"");
  type.namespaced = scope == "Namespaced";
  const json* version = spec.contains("versions") && spec["versions"].is_array()
                          ? served_version(spec["versions"])
                          : nullptr;
  if (!version)
    throw invalid(crd_type, name, "spec.versions", "FieldValueInvalid",
                  "Invalid value: must have exactly one version marked as storage version");
  type.version = text_at(*version, "name");
  if (type.version.empty())
    throw required(name, "spec.versions[0].name");
  type.has_status = version->contains("subresources") && (*version)["subresources"].is_object()
                    && (*version)["subresources"].contains("status");
  if (names.contains("shortNames") && names["shortNames"].is_array())
    for (const auto& short_name : names["shortNames"])
      if (short_name.is_string())
        type.short_names.push_back(short_name.get<std::string>());
  return type;
}

json crd_status(const json& crd, const resource_type& type) {
  json accepted = crd["spec"]["names"];
  if (!accepted.contains("singular"))
    accepted["singular"] = type.plural;
  auto now = rfc3339_now();
  auto condition = [&](const char* kind, const char* reason, const char* message) {
    return json{{"type", kind},
                {"status", "True"},
                {"lastTransitionTime", now},
                {"reason", reason},
                {"message", message}};
  };
  return {
    {"acceptedNames", accepted},
    {"conditions",
     {condition("NamesAccepted", "NoConflicts", "no conflicts found"),
      condition("Established", "InitialNamesAccepted", "the initial names have been accepted")}},
    {"storedVersions", {type.version}}};
}

} // namespace ganglion::test::kube
