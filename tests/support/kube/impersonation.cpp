#include "impersonation.hpp"

#include "identity.hpp"

namespace ganglion::test::kube {

namespace {

/// Go's `%v` of the ObjectReference Kubernetes builds for each impersonation.
std::string reference_text(const std::string& kind, const std::string& name,
                           const std::string& api_version = {},
                           const std::string& field_path = {}) {
  return "{" + kind + "  " + name + "  " + api_version + "  " + field_path + "}";
}

request_attributes impersonation_of(std::string group, std::string resource, std::string name,
                                    std::string ns = {}, std::string subresource = {}) {
  request_attributes attributes;
  attributes.resource_request = true;
  attributes.verb = "impersonate";
  attributes.group = std::move(group);
  attributes.version = "v1";
  attributes.resource = std::move(resource);
  attributes.subresource = std::move(subresource);
  attributes.name = std::move(name);
  attributes.ns = std::move(ns);
  return attributes;
}

} // namespace

user_info impersonate(const user_info& requester, const impersonation_headers& headers,
                      const authorizer& authorize) {
  if (!headers.any())
    return requester;
  if (headers.user.empty()) {
    std::string references;
    for (const auto& group : headers.groups)
      references += (references.empty() ? "" : " ") + reference_text("Group", group);
    for (const auto& [key, value] : headers.extras)
      references += (references.empty() ? "" : " ")
                    + reference_text("UserExtra", value, "authentication.k8s.io/v1", key);
    if (!headers.uid.empty())
      references += (references.empty() ? "" : " ")
                    + reference_text("UID", headers.uid, "authentication.k8s.io/v1");
    throw impersonation_error("requested [" + references + "] without impersonating a user");
  }
  std::vector<request_attributes> checks;
  user_info user{headers.user, {}};
  if (auto account = split_service_account(headers.user)) {
    checks.push_back(impersonation_of("", "serviceaccounts", account->second, account->first));
    if (headers.groups.empty())
      user.groups = service_account_groups(account->first);
  } else {
    checks.push_back(impersonation_of("", "users", headers.user));
  }
  for (const auto& group : headers.groups) {
    checks.push_back(impersonation_of("", "groups", group));
    user.groups.push_back(group);
  }
  for (const auto& [key, value] : headers.extras)
    checks.push_back(impersonation_of("authentication.k8s.io", "userextras", value, {}, key));
  if (!headers.uid.empty())
    checks.push_back(impersonation_of("authentication.k8s.io", "uids", headers.uid));
  for (const auto& check : checks) {
    auto answer = authorize.authorize(requester, check);
    if (!answer.allowed)
      throw forbidden(requester, check, answer.reason);
  }
  bool anonymous_user = user.name == "system:anonymous";
  if (!has_group(user.groups, "system:unauthenticated")
      && (anonymous_user || !has_group(user.groups, "system:authenticated")))
    user.groups.push_back(anonymous_user ? "system:unauthenticated" : "system:authenticated");
  return user;
}

} // namespace ganglion::test::kube
