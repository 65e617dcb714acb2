#include "rbac.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "identity.hpp"

namespace ganglion::test::kube {

namespace {

constexpr const char* rbac_group = "rbac.authorization.k8s.io";

std::vector<std::string> strings_of(const json& object, const char* key) {
  std::vector<std::string> values;
  if (!object.is_object() || !object.contains(key) || !object[key].is_array())
    return values;
  for (const auto& value : object[key])
    if (value.is_string())
      values.push_back(value.get<std::string>());
  return values;
}

std::string text_of(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string())
    return {};
  return object[key].get<std::string>();
}

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

bool verb_matches(const json& rule, const std::string& verb) {
  auto verbs = strings_of(rule, "verbs");
  return contains(verbs, "*") || contains(verbs, verb);
}

bool group_matches(const json& rule, const std::string& group) {
  auto groups = strings_of(rule, "apiGroups");
  return contains(groups, "*") || contains(groups, group);
}

bool resource_matches(const json& rule, const std::string& combined,
                      const std::string& subresource) {
  for (const auto& resource : strings_of(rule, "resources")) {
    if (resource == "*" || resource == combined)
      return true;
    if (!subresource.empty() && resource == "*/" + subresource)
      return true;
  }
  return false;
}

bool name_matches(const json& rule, const std::string& name) {
  auto names = strings_of(rule, "resourceNames");
  return names.empty() || contains(names, name);
}

bool url_matches(const json& rule, const std::string& path) {
  for (const auto& url : strings_of(rule, "nonResourceURLs")) {
    if (url == "*" || url == path)
      return true;
    if (!url.empty() && url.back() == '*' && path.rfind(url.substr(0, url.size() - 1), 0) == 0)
      return true;
  }
  return false;
}

/// The first subject of `subjects` that is `user` (appliesTo); `ns` is the binding's.
std::optional<json> subject_for(const user_info& user, const json& subjects,
                                const std::string& ns) {
  if (!subjects.is_array())
    return std::nullopt;
  for (const auto& subject : subjects) {
    auto kind = text_of(subject, "kind");
    auto name = text_of(subject, "name");
    bool applies = false;
    if (kind == "User")
      applies = user.name == name;
    else if (kind == "Group")
      applies = has_group(user.groups, name);
    else if (kind == "ServiceAccount") {
      auto account_ns = text_of(subject, "namespace");
      if (account_ns.empty())
        account_ns = ns;
      applies = !account_ns.empty() && user.name == service_account_user(account_ns, name);
    }
    if (applies)
      return subject;
  }
  return std::nullopt;
}

std::string describe_subject(const json& subject, const std::string& binding_ns) {
  auto kind = text_of(subject, "kind");
  auto name = text_of(subject, "name");
  if (kind == "ServiceAccount") {
    auto ns = text_of(subject, "namespace");
    return kind + " \"" + name + "/" + (ns.empty() ? binding_ns : ns) + "\"";
  }
  return kind + " \"" + name + "\"";
}

std::string aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1)
    return errors.front();
  std::set<std::string> seen;
  std::string joined;
  for (const auto& error : errors) {
    if (!seen.insert(error).second)
      continue;
    if (seen.size() > 1)
      joined += ", ";
    joined += error;
  }
  return seen.size() == 1 ? joined : "[" + joined + "]";
}

std::string sanitized(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

} // namespace

bool rule_allows(const json& rule, const request_attributes& attributes) {
  if (!attributes.resource_request)
    return verb_matches(rule, attributes.verb) && url_matches(rule, attributes.path);
  auto combined = attributes.subresource.empty()
                    ? attributes.resource
                    : attributes.resource + "/" + attributes.subresource;
  return verb_matches(rule, attributes.verb) && group_matches(rule, attributes.group)
         && resource_matches(rule, combined, attributes.subresource)
         && name_matches(rule, attributes.name);
}

authorizer::authorizer(const store& objects, const server_options& options)
  : store_(objects), enabled_(options.rbac), admin_users_(options.admin_users),
    admin_groups_(options.admin_groups) {}

bool authorizer::privileged(const user_info& user) const {
  if (contains(admin_users_, user.name))
    return true;
  return std::any_of(admin_groups_.begin(), admin_groups_.end(),
                     [&](const std::string& group) { return has_group(user.groups, group); });
}

decision authorizer::authorize(const user_info& user, const request_attributes& attributes) const {
  if (!enabled_ || privileged(user))
    return {true, ""};
  auto cluster_roles = store_.find(rbac_group, "v1", "clusterroles");
  auto cluster_bindings = store_.find(rbac_group, "v1", "clusterrolebindings");
  auto roles = store_.find(rbac_group, "v1", "roles");
  auto bindings = store_.find(rbac_group, "v1", "rolebindings");
  if (!cluster_roles || !cluster_bindings || !roles || !bindings)
    return {false, ""};
  std::vector<std::string> errors;
  auto rules_of = [&](const json& ref, const std::string& ns) -> std::optional<json> {
    auto kind = text_of(ref, "kind");
    auto name = text_of(ref, "name");
    std::optional<json> role;
    if (kind == "Role")
      role = store_.get(*roles, ns, name);
    else if (kind == "ClusterRole")
      role = store_.get(*cluster_roles, "", name);
    else {
      errors.push_back("unsupported role reference kind: \"" + kind + "\"");
      return std::nullopt;
    }
    if (!role) {
      std::string lower = kind == "Role" ? "role" : "clusterrole";
      errors.push_back(lower + "." + rbac_group + " \"" + name + "\" not found");
      return std::nullopt;
    }
    return role->contains("rules") ? (*role)["rules"] : json::array();
  };
  auto visit = [&](const json& binding, const std::string& ns) -> std::optional<decision> {
    auto subject = subject_for(user, binding.value("subjects", json::array()), ns);
    if (!subject)
      return std::nullopt;
    json ref = binding.value("roleRef", json::object());
    auto rules = rules_of(ref, ns);
    if (!rules || !rules->is_array())
      return std::nullopt;
    for (const auto& rule : *rules) {
      if (!rule_allows(rule, attributes))
        continue;
      auto name = text_of(binding.value("metadata", json::object()), "name");
      auto source = ns.empty() ? "ClusterRoleBinding \"" + name + "\""
                               : "RoleBinding \"" + name + "/" + ns + "\"";
      return decision{true, "RBAC: allowed by " + source + " of " + text_of(ref, "kind") + " \""
                              + text_of(ref, "name") + "\" to " + describe_subject(*subject, ns)};
    }
    return std::nullopt;
  };
  for (const auto& binding : store_.list(*cluster_bindings, {}, 0, "").items)
    if (auto allowed = visit(binding, ""))
      return *allowed;
  if (!attributes.ns.empty()) {
    watch_filter in_namespace;
    in_namespace.ns = attributes.ns;
    for (const auto& binding : store_.list(*bindings, in_namespace, 0, "").items)
      if (auto allowed = visit(binding, attributes.ns))
        return *allowed;
  }
  return {false, errors.empty() ? "" : "RBAC: " + aggregate(errors)};
}

api_error forbidden(const user_info& user, const request_attributes& attributes,
                    const std::string& reason) {
  std::string message;
  if (!attributes.resource_request) {
    message =
      "User \"" + user.name + "\" cannot " + attributes.verb + " path \"" + attributes.path + "\"";
  } else {
    auto resource = attributes.subresource.empty()
                      ? attributes.resource
                      : attributes.resource + "/" + attributes.subresource;
    message = "User \"" + user.name + "\" cannot " + attributes.verb + " resource \"" + resource
              + "\" in API group \"" + attributes.group + "\" "
              + (attributes.ns.empty() ? "at the cluster scope"
                                       : "in the namespace \"" + attributes.ns + "\"");
  }
  message = sanitized(message);
  if (!reason.empty())
    message += ": " + reason;
  json details = json::object();
  std::string qualified_resource;
  if (attributes.resource_request && !attributes.resource.empty()) {
    qualified_resource = attributes.group.empty() ? attributes.resource
                                                  : attributes.resource + "." + attributes.group;
    details["kind"] = attributes.resource;
    if (!attributes.group.empty())
      details["group"] = attributes.group;
    if (!attributes.name.empty())
      details["name"] = attributes.name;
  }
  std::string text;
  if (qualified_resource.empty())
    text = "forbidden: " + message;
  else if (attributes.name.empty())
    text = qualified_resource + " is forbidden: " + message;
  else
    text = qualified_resource + " \"" + attributes.name + "\" is forbidden: " + message;
  return {403, "Forbidden", text, details};
}

} // namespace ganglion::test::kube
